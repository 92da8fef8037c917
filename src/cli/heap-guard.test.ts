/** The CLI's heap guard, with a small injected heap: a log that cannot fit fails with one clear line, not a V8 abort. */

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { generateSession, toJsonl } from '../generate/index.ts'
import { eventsOfJsonl } from '../test-support/expanded-events.ts'
import { zstdFrame } from '../test-support/zstd-frames.ts'
import { HeapGuard, LogTooLargeError } from './heap-guard.ts'
import { readLog, UnreadableLogError } from './read-log.ts'

const dir = mkdtempSync(join(tmpdir(), 'lens-heap-'))
const jsonl = toJsonl(generateSession({ seed: 3, targetEvents: 300 }))
const plainPath = join(dir, 'session.jsonl')
const zstdPath = join(dir, 'session.jsonl.zstd')
writeFileSync(plainPath, jsonl)
writeFileSync(zstdPath, zstdFrame(jsonl))
const size = Buffer.byteLength(jsonl)

test('a plain file too large for the heap is refused before it is read, in one line', async () => {
  const error = await readLog(plainPath, { heap: { heapLimitBytes: size, heapUsedBytes: () => 0 } }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(LogTooLargeError)
  // main() prints an UnreadableLogError as `dsh-lens: <message>` and exits 2.
  expect(error).toBeInstanceOf(UnreadableLogError)
  const message = (error as Error).message
  expect(message).not.toContain('\n')
  expect(message).toContain(`${plainPath} is 0 MB of plain text`)
  expect(message).toContain("more than Node's heap limit here")
  expect(message).toContain('NODE_OPTIONS=--max-old-space-size=')
})

test('while reading (zstd, whose plain size is unknown up front): stops once the heap is nearly full', async () => {
  const limit = 64 * 2 ** 20
  const error = await readLog(zstdPath, { heap: { heapLimitBytes: limit, heapUsedBytes: () => limit * 0.95 } }).catch(
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LogTooLargeError)
  expect((error as Error).message).toMatch(/stopped after reading 0 MB of 0 MB: Node's heap is 95% full \(limit 64 MB\)/)
})

test('a log that fits is read whole', async () => {
  const log = await readLog(plainPath, { heap: { heapLimitBytes: 4 * size, heapUsedBytes: () => size } })
  expect(log.length).toBe(eventsOfJsonl(jsonl).length)
  const zstd = await readLog(zstdPath, { heap: { heapLimitBytes: 4 * size, heapUsedBytes: () => size } })
  expect(zstd.length).toBe(log.length)
})

test('the heap is only measured once a pessimistic estimate of what the log needs comes near the limit', () => {
  let asked = 0
  const guard = new HeapGuard('x.jsonl', { heapLimitBytes: 2 ** 32, heapUsedBytes: () => (asked++, 0) })
  guard.checkHeap(8 << 20, null, 8 << 20)
  expect(asked).toBe(0)
  guard.checkHeap(900 << 20, null, 900 << 20)
  expect(asked).toBe(1)
})
