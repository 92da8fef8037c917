/** What the page opens: an offline bundle's data wins over whatever its address says; the Compare view's address. */

import { describe, expect, it } from 'vitest'
import { BUNDLE_FORMAT, type BundleData } from '../../core/export/offline-bundle.ts'
import { liveParamsOf, pageSource } from './page-source.ts'

const data: BundleData = {
  format: BUNDLE_FORMAT,
  madeAt: '2026-01-01T00:00:00.000Z',
  session: { id: 's', title: null },
  redaction: { mode: 'redacted', paths: false, count: 0, secrets: 0, allowed: 0 },
  logs: [{ path: 'session.jsonl', sessionId: 's', encoding: 'jsonl', gzipBase64: '' }],
  madeBy: 'test',
}

const location = { search: '', protocol: 'http:', host: '127.0.0.1:4000' } as Pick<Location, 'search' | 'protocol' | 'host'>

describe('pageSource', () => {
  it('opens a bundle from its data, whatever the address', () => {
    expect(pageSource('?log=/x.jsonl', null, data)).toStrictEqual({ kind: 'bundle', data })
    expect(pageSource('?ws=ws://x', 'signed-in', data)).toStrictEqual({ kind: 'bundle', data })
    expect(pageSource('?compare=aa&with=bb', 'signed-in', data)).toStrictEqual({ kind: 'bundle', data })
  })

  it('reads the address otherwise', () => {
    expect(pageSource('?log=/x.jsonl', null)).toStrictEqual({ kind: 'log', url: '/x.jsonl' })
    expect(pageSource('', null, null)).toStrictEqual({ kind: 'demo' })
    expect(pageSource('?session=abc', 'signed-out')).toStrictEqual({
      kind: 'served',
      session: 'abc',
      compare: null,
      signedIn: false,
    })
  })
})

describe('pageSource: the Compare view of a served page', () => {
  it('?compare=A&with=B names two sessions; the live params carry them', () => {
    const source = pageSource('?compare=session-aa&with=bb', 'signed-in')
    expect(source).toStrictEqual({ kind: 'served', session: null, compare: { a: 'session-aa', b: 'bb' }, signedIn: true })
    expect(liveParamsOf(source, location)).toStrictEqual({
      ws: 'ws://127.0.0.1:4000/v1/stream',
      token: null,
      session: null,
      served: true,
      compare: { a: 'session-aa', b: 'bb' },
    })
  })

  it('one side missing or empty is no comparison (the home, or the session named)', () => {
    expect(pageSource('?compare=aa', 'signed-in')).toMatchObject({ kind: 'served', compare: null })
    expect(pageSource('?compare=aa&with=', 'signed-in')).toMatchObject({ kind: 'served', compare: null })
    expect(pageSource('?session=s1&with=bb', 'signed-out')).toStrictEqual({
      kind: 'served',
      session: 's1',
      compare: null,
      signedIn: false,
    })
    expect(liveParamsOf(pageSource('?session=s1', 'signed-in'), location)).not.toHaveProperty('compare')
  })

  it('an unserved page does not compare by address', () => {
    expect(pageSource('?compare=aa&with=bb', null)).toStrictEqual({ kind: 'demo' })
  })
})
