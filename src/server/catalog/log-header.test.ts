/** What the session list says about a file from its first bytes: the header, or why there is none. */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { zstdFrames } from '../../test-support/zstd-frames.ts'
import { readLogHeader } from './log-header.ts'

const ROOT = new URL('../../../', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'lens-catalog-'))
const HEADER = '{"type":"session","version":0,"id":"s1","createdAt":1,"delegationDepth":0}\n'

function file(name: string, bytes: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

describe('readLogHeader', () => {
  it('a log, plain or zstd: its header', async () => {
    expect(await readLogHeader(file('a.jsonl', HEADER), undefined)).toMatchObject({ encoding: 'jsonl', header: { id: 's1' } })
    expect(await readLogHeader(file('b.jsonl.zstd', zstdFrames([HEADER])), undefined)).toMatchObject({
      encoding: 'zstd',
      header: { id: 's1' },
    })
  })

  it('a file that is no log at all: the same sentence the viewer and the CLI say', async () => {
    const png = readFileSync(join(ROOT, 'public/screenshots/overview.png'))
    expect(await readLogHeader(file('session.jsonl', png), undefined)).toStrictEqual({
      encoding: 'jsonl',
      header: null,
      error: 'not a session log: this is a PNG image',
    })
  })

  it('an empty file is not refused: its header may still come', async () => {
    expect(await readLogHeader(file('empty.jsonl', ''), undefined)).toStrictEqual({
      encoding: 'jsonl',
      header: null,
      error: 'no complete header line yet',
    })
  })
})
