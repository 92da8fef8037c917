/**
 * The CLI's zstd read-ahead worker (zstd-prefetch.ts) changes no answer: the built CLI's `fold --json` and `check`
 * print the same bytes and exit codes with the worker as without it (DSH_LENS_ZSTD_WORKER=0), from a file and from
 * standard input, on the real zstd fixtures, on a generated multi-frame log, and on that log with a corrupt frame
 * (decode error or checksum mismatch) and a torn final frame; and on the generated log the worker really delivers
 * the frames (DSH_LENS_ZSTD_WORKER=stats), so the comparison is not between two main-thread runs.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { batchText, headerLine, presetOptions, streamSession } from '../core/generate/index.ts'
import { zstdFrameRanges } from '../bench/frame-walker.ts'
import { writeZstdFrames } from '../bench/zstd-writer.ts'
import { fixturesAvailable, listZstdFixtures } from '../test-support/shared-fixtures.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const out = mkdtempSync(join(tmpdir(), 'lens-zstd-prefetch-'))
const BUILT = join(out, 'dsh-lens.cjs')

function built(args: string[], worker: '0' | 'stats', input?: Buffer) {
  const result = spawnSync(process.execPath, [BUILT, ...args], {
    cwd: ROOT,
    env: { ...process.env, DSH_LENS_ZSTD_WORKER: worker },
    ...(input === undefined ? {} : { input }),
    maxBuffer: 256 << 20,
  })
  return { code: result.status, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

/** Both runs answer alike; returns the worker run's frame counts. */
function sameWithAndWithout(path: string): { fromWorker: number; here: number } {
  let counts = { fromWorker: 0, here: 0 }
  for (const args of [
    ['fold', path, '--json'],
    ['check', path],
  ]) {
    const without = built(args, '0')
    const withWorker = built(args, 'stats')
    expect(withWorker.stdout).toBe(without.stdout)
    expect(withWorker.code).toBe(without.code)
    const stats = /zstd frames: (\d+) from the worker, (\d+) on the main thread/.exec(withWorker.stderr)
    expect(stats, withWorker.stderr).not.toBeNull()
    counts = { fromWorker: Number(stats?.[1]), here: Number(stats?.[2]) }
  }
  // Standard input goes through the same read-ahead, in the pipe's small chunks.
  const bytes = readFileSync(path)
  const piped = built(['fold', '-', '--json'], 'stats', bytes)
  expect(piped.stdout).toBe(built(['fold', '-', '--json'], '0', bytes).stdout)
  return counts
}

let generated = ''

beforeAll(() => {
  const build = spawnSync(TSX, ['src/build/build-cli.ts', '--outdir', out], { cwd: ROOT, encoding: 'utf8' })
  expect(build.stderr).toBe('')
  expect(build.status).toBe(0)
  const stream = streamSession(presetOptions('10k', 7))
  generated = join(out, 'generated.jsonl.zst')
  writeZstdFrames(
    (function* () {
      yield headerLine(stream.header)
      for (const batch of stream.batches) yield batchText(batch)
    })(),
    generated,
  )
}, 120_000)

describe('zstd read-ahead on a worker thread', () => {
  it('answers a generated multi-frame log exactly as the main thread alone, with the worker decoding every frame', () => {
    const counts = sameWithAndWithout(generated)
    // Forced, the worker decodes every frame of a clean log (the main thread waits for it to start).
    expect(counts.here).toBe(0)
    expect(counts.fromWorker + counts.here).toBe(zstdFrameRanges(readFileSync(generated)).length)
  }, 180_000)

  it('reports a corrupt frame and a torn final frame exactly as the main thread alone', () => {
    const bytes = readFileSync(generated)
    const frames = zstdFrameRanges(bytes)
    const [start, end] = frames[Math.floor(frames.length / 2)] as [number, number]
    for (const [name, at] of [
      ['payload', start + Math.floor((end - start) / 2)],
      ['checksum', end - 2],
    ] as const) {
      const damaged = Buffer.from(bytes)
      damaged[at] = (damaged[at] as number) ^ 0x5a
      const path = join(out, `corrupt-${name}.jsonl.zst`)
      writeFileSync(path, damaged)
      sameWithAndWithout(path)
    }
    const [lastStart, lastEnd] = frames.at(-1) as [number, number]
    const torn = join(out, 'torn.jsonl.zst')
    writeFileSync(torn, bytes.subarray(0, lastStart + Math.floor((lastEnd - lastStart) / 2)))
    sameWithAndWithout(torn)
    // Fifteen whole processes: generous, the machine the suite runs on may be shared.
  }, 180_000)

  it.runIf(fixturesAvailable())(
    'answers every real zstd fixture exactly as the main thread alone',
    () => {
      for (const fixture of listZstdFixtures()) sameWithAndWithout(fixture.path)
    },
    180_000,
  )
})
