/** What the page opens: an offline bundle's data wins over whatever its address says. */

import { describe, expect, it } from 'vitest'
import { BUNDLE_FORMAT, type BundleData } from '../../core/export/offline-bundle.ts'
import { pageSource } from './page-source.ts'

const data: BundleData = {
  format: BUNDLE_FORMAT,
  madeAt: '2026-01-01T00:00:00.000Z',
  session: { id: 's', title: null },
  redaction: { mode: 'redacted', paths: false, count: 0, secrets: 0, allowed: 0 },
  logs: [{ path: 'session.jsonl', sessionId: 's', encoding: 'jsonl', gzipBase64: '' }],
  madeBy: 'test',
}

describe('pageSource', () => {
  it('opens a bundle from its data, whatever the address', () => {
    expect(pageSource('?log=/x.jsonl', null, data)).toStrictEqual({ kind: 'bundle', data })
    expect(pageSource('?ws=ws://x', 'signed-in', data)).toStrictEqual({ kind: 'bundle', data })
  })

  it('reads the address otherwise', () => {
    expect(pageSource('?log=/x.jsonl', null)).toStrictEqual({ kind: 'log', url: '/x.jsonl' })
    expect(pageSource('', null, null)).toStrictEqual({ kind: 'demo' })
    expect(pageSource('?session=abc', 'signed-out')).toStrictEqual({ kind: 'served', session: 'abc', signedIn: false })
  })
})
