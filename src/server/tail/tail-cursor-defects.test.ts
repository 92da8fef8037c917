/**
 * Cursors on logs with defects in the middle (a bad line, missing seqs, a zstd frame failing its checksum, a record
 * spilling over a frame's end): from every start seq, through the ring and through the on-disk index, batches are
 * contiguous in seq up to the head, and what they carry decodes to the file's events from there on (from seq 0: to
 * the file's events and defects, the defective lines being forwarded as they are).
 */

import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { LensLog, loadContentChecksum } from '../../core/index.ts'
import { batchText, streamSession } from '../../generate/index.ts'
import { tempRoot, zstdFrameAsync } from '../../test-support/live-test-kit.ts'
import { SessionTail } from './session-tail.ts'
import { TailCursor } from './tail-cursor.ts'

async function decode(bytes: Uint8Array): Promise<{ events: Array<{ seq: number; json: string }>; defects: string[] }> {
  const log = new LensLog({ checksum: await loadContentChecksum(), upgradeLegacy: false })
  log.push(bytes)
  log.finish()
  const events: Array<{ seq: number; json: string }> = []
  for (let i = 0; i < log.length; i++) events.push({ seq: log.seqOf(i) as number, json: JSON.stringify(log.event(i)) })
  const defects = log.diagnostics
    .filter((d) => d.severity === 'error' && !d.code.startsWith('zstd-') && d.code !== 'scanner-rejects')
    .map((d) => `${d.code}@${d.seq}`)
  return { events, defects }
}

/** A generated log with four defects in its middle, as JSONL or as zstd frames (one per batch). */
async function defectiveLog(zstd: boolean): Promise<{ path: string; header: string }> {
  const s = streamSession({ seed: 41, targetEvents: 900, hugeToolResultEvery: 0 })
  const header = JSON.stringify(s.header)
  const batches = [...s.batches].map(batchText)
  const parts: Uint8Array[] = []
  const enc = async (text: string): Promise<Uint8Array> => (zstd ? zstdFrameAsync(text) : new TextEncoder().encode(text))
  parts.push(await enc(header + '\n'))
  for (const [i, text] of batches.entries()) {
    if (i === 8) {
      // A bad line: the batch's first record loses its last character.
      const lines = text.split('\n')
      lines[0] = (lines[0] as string).slice(0, -1)
      parts.push(await enc(lines.join('\n')))
    } else if (i === 15) {
      continue // missing seqs
    } else if (i === 22 && zstd) {
      const frame = await enc(text)
      frame[frame.length - 1] = (frame[frame.length - 1] as number) ^ 0x55 // checksum no longer matches
      parts.push(frame)
    } else if (i === 30 && zstd) {
      const cut = text.indexOf('\n') + 5
      parts.push(await enc(text.slice(0, cut)), await enc(text.slice(cut))) // a record spilling into the next frame
    } else parts.push(await enc(text))
  }
  const path = join(await tempRoot(), zstd ? 'session.jsonl.zstd' : 'session.jsonl')
  await writeFile(path, Buffer.concat(parts))
  return { path, header }
}

// Many cursors over real files on a shared machine: generous, and nothing here asserts a duration.
const TEST_TIMEOUT_MS = 180_000

for (const zstd of [false, true]) {
  test(
    `${zstd ? 'zstd' : 'jsonl'} with defects mid-file: every start seq, ring and disk, contiguous and like the file`,
    async () => {
      const checksum = await loadContentChecksum()
      const { path, header } = await defectiveLog(zstd)
      const file = await decode(new Uint8Array(await readFile(path)))
      const last = (file.events[file.events.length - 1] as { seq: number }).seq
      expect(file.defects.length).toBeGreaterThanOrEqual(2)
      for (const ringBytes of [1, 64 * 1024 * 1024]) {
        const tail = new SessionTail(path, { pollMs: 1000, checksum, ringBytes, readChunkBytes: 4096 })
        await tail.poll()
        expect(tail.headSeq).toBe(last)
        expect(tail.corrupt).toBeUndefined()
        expect(tail.defects.map((d) => d.diagnostic)).toContain(zstd ? 'zstd-frame-corrupt' : 'line-invalid-json')
        for (let from = 0; from <= last; from += 9) {
          const cursor = new TailCursor(tail, from, checksum)
          const lines: string[] = []
          let next = from
          for (let batch = await cursor.next(7, 4096); batch !== null; batch = await cursor.next(7, 4096)) {
            expect(batch.fromSeq).toBe(next)
            next = batch.toSeq + 1
            lines.push(...batch.lines)
          }
          expect(next).toBe(last + 1)
          const got = await decode(new TextEncoder().encode([header, ...lines].join('\n') + '\n'))
          expect(got.events.map((e) => e.json)).toStrictEqual(file.events.filter((e) => e.seq >= from).map((e) => e.json))
          if (from === 0) expect(got.defects).toStrictEqual(file.defects)
        }
        await tail.stop()
      }
    },
    TEST_TIMEOUT_MS,
  )
}
