// The benchmark's zstd files must be the harness's container: frame 1 = header line, one checksummed frame per batch.
import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { batchText, generatePreset, headerLine, toJsonl } from '../generate/index.ts'
import { LensLog, loadContentChecksum } from '../core/index.ts'
import { floorParse } from './baselines.ts'
import { zstdFrameRanges } from './frame-walker.ts'
import { writeZstdFrames } from './zstd-writer.ts'

describe('writeZstdFrames', () => {
  it('writes one checksummed frame per batch that LensLog reads back to the same log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-lens-zstd-test-'))
    try {
      const session = generatePreset('demo', 7)
      const path = join(dir, 'demo.jsonl.zst')
      const frames = writeZstdFrames([headerLine(session.header), ...session.batches.map(batchText)], path)
      expect(frames).toBe(session.batches.length + 1)
      const bytes = readFileSync(path)
      expect(zstdFrameRanges(bytes).length).toBe(frames)
      const log = new LensLog({ checksum: await loadContentChecksum() })
      log.push(bytes)
      log.finish()
      expect(log.diagnostics).toEqual([])
      expect(log.progress.frames).toBe(frames)
      expect(log.length).toBe(session.eventCount)
      const plain = new TextEncoder().encode(toJsonl(session))
      expect(floorParse(bytes, 'zstd')).toEqual(floorParse(plain, 'jsonl'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
