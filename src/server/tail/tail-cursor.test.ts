/** Cursors from every seq, through the on-disk index (ring off) and through the ring, yield exactly the file's events from there on. */

import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { FIXTURE_DIR, fixturesAvailable } from '../../test-support/shared-fixtures.ts'
import { expandPackedRow, loadContentChecksum, type PackedRow } from '../../core/index.ts'
import { diskEvents } from '../../test-support/live-test-kit.ts'
import { parseRecordLine } from './record-line.ts'
import { SessionTail } from './session-tail.ts'
import { TailCursor } from './tail-cursor.ts'

// Real harness logs, read in place from ../shared (absent in a user's clone: the lane is skipped there).
const FILES = fixturesAvailable()
  ? [
      `${FIXTURE_DIR}zstd/acp--packed-chunks--session.jsonl.zstd`,
      `${FIXTURE_DIR}zstd/web--goal-multi-turn-actions--session.jsonl.zstd`,
      `${FIXTURE_DIR}acp--packed-chunks--session.jsonl`,
    ]
  : []

function expand(lines: readonly string[]): string[] {
  const out: string[] = []
  for (const line of lines) {
    const parsed = parseRecordLine(line)
    if (!parsed.ok) throw new Error(parsed.why)
    const row = parsed.record.row
    if (row === undefined) out.push(JSON.stringify(JSON.parse(line)))
    else for (const e of expandPackedRow(row as PackedRow)) out.push(JSON.stringify(e))
  }
  return out
}

describe.runIf(FILES.length > 0)('tail cursors on real harness logs', () => {
  test.each(FILES)('%s: every start seq, small batches, ring and disk', async (file) => {
    const checksum = await loadContentChecksum()
    const want = await diskEvents(file)
    expect(readFileSync(file).length).toBeGreaterThan(0)
    for (const ringBytes of [1, 64 * 1024 * 1024]) {
      const tail = new SessionTail(file, { pollMs: 1000, checksum, ringBytes, readChunkBytes: 4096 })
      await tail.poll()
      expect(tail.headSeq).toBe(want.length - 1)
      const step = Math.max(1, Math.floor(want.length / 60))
      for (let from = 0; from < want.length; from += step) {
        const cursor = new TailCursor(tail, from, checksum)
        const lines: string[] = []
        for (let batch = await cursor.next(7, 4096); batch !== null; batch = await cursor.next(7, 4096)) {
          expect(batch.toSeq - batch.fromSeq).toBeLessThan(7)
          lines.push(...batch.lines)
        }
        expect(expand(lines)).toStrictEqual(want.slice(from))
      }
      await tail.stop()
    }
  })
})
