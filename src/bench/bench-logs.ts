/** Generated benchmark logs, cached under .bench/logs/ (never committed) and rebuilt when the generator changes. */

import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { batchText, headerLine, presetOptions, recordEventCount, streamSession, type PresetName } from '../generate/index.ts'
import { writeZstdFrames } from './zstd-writer.ts'

export interface BenchLog {
  readonly preset: PresetName
  readonly seed: number
  readonly jsonlPath: string
  readonly zstdPath: string
  readonly events: number
  readonly frames: number
  readonly plainBytes: number
  readonly zstdBytes: number
}

const GENERATOR_DIR = new URL('../generate/', import.meta.url)

/** Hash of the generator's sources: a cached log is reused only if it came from the same generator. */
export function generatorHash(): string {
  const hash = createHash('sha1')
  for (const name of readdirSync(GENERATOR_DIR).sort()) {
    if (name.endsWith('.ts') && !name.endsWith('.test.ts')) hash.update(name).update(readFileSync(new URL(name, GENERATOR_DIR)))
  }
  return hash.digest('hex').slice(0, 12)
}

export function benchLog(preset: PresetName, seed = 1, dir = '.bench/logs'): BenchLog {
  mkdirSync(dir, { recursive: true })
  const base = join(dir, `${preset}-seed${seed}-${generatorHash()}`)
  const metaPath = `${base}.json`
  if (existsSync(metaPath)) return JSON.parse(readFileSync(metaPath, 'utf8')) as BenchLog
  const jsonlPath = `${base}.jsonl`
  const zstdPath = `${base}.jsonl.zst`
  const stream = streamSession(presetOptions(preset, seed))
  const fd = openSync(`${jsonlPath}.tmp`, 'w')
  let events = 0
  let plainBytes = 0
  // One pass over the generator feeds both files: the JSONL text and the frame list.
  const frames = (function* (): Generator<string> {
    const header = headerLine(stream.header)
    plainBytes += writeSync(fd, header)
    yield header
    for (const batch of stream.batches) {
      for (const record of batch) events += recordEventCount(record)
      const text = batchText(batch)
      plainBytes += writeSync(fd, text)
      yield text
    }
  })()
  const frameCount = writeZstdFrames(frames, `${zstdPath}.tmp`)
  closeSync(fd)
  renameSync(`${jsonlPath}.tmp`, jsonlPath)
  renameSync(`${zstdPath}.tmp`, zstdPath)
  const log: BenchLog = {
    preset,
    seed,
    jsonlPath,
    zstdPath,
    events,
    frames: frameCount,
    plainBytes,
    zstdBytes: statSync(zstdPath).size,
  }
  writeFileSync(metaPath, JSON.stringify(log, null, 2))
  return log
}
