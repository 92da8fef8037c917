/**
 * libzstd in WebAssembly (zstd-wasm.ts) changes no answer: on clean multi-frame logs it is the decoder that answers
 * (no silent fallback, so these comparisons are not fzstd against itself) and its plaintext is fzstd's byte for
 * byte; on damaged logs (a flipped payload byte, a flipped checksum, a wrong declared size, a torn final frame,
 * frames without a declared size, random flips) a LensLog reading with it gives exactly the events, diagnostics
 * and strict results of one reading with fzstd alone; and the same holds for the harness's real zstd fixtures.
 * A failing property prints its seed; FC_SEED replays it (src/test-support/fast-check-setup.ts).
 */

import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { decompress } from './vendor/fzstd.js'
import { describe, expect, it, vi } from 'vitest'
import { zstdFrameRanges } from '../../bench/frame-walker.ts'
import { writeZstdFrames } from '../../bench/zstd-writer.ts'
import { mutateBytes, strictResults } from '../../test-support/fuzz-kit.ts'
import { fixturesAvailable, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { zstdFrame } from '../../test-support/zstd-frames.ts'
import { batchText, headerLine, presetOptions, streamSession } from '../../generate/index.ts'
import { LensLog } from '../log/lens-log.ts'
import { loadContentChecksum } from './xxh64.ts'
import { ZstdContainer, type FrameDecompressor } from './zstd-container.ts'
import { fzstdFrameDecompressor, libzstdFrameDecompressor, WASM_FRAME_MAX, zstdDecoder } from './zstd-wasm.ts'

const checksum = await loadContentChecksum()
const wasm = libzstdFrameDecompressor()
const decoder = zstdDecoder()

/** A generated multi-frame log written as the harness does: one frame per batch, each declaring its size. */
function generatedLog(): Uint8Array {
  const stream = streamSession(presetOptions('10k', 11))
  const path = join(mkdtempSync(join(tmpdir(), 'lens-zstd-wasm-')), 'log.jsonl.zst')
  writeZstdFrames(
    (function* () {
      yield headerLine(stream.header)
      for (const batch of stream.batches) yield batchText(batch)
    })(),
    path,
  )
  return new Uint8Array(readFileSync(path))
}
const clean = generatedLog()
const frames = zstdFrameRanges(clean)

/** Everything a reader of the log sees: events, every diagnostic, the harness's strict answers. Without a
 * decompressor, LensLog's own default: libzstd, as every host reads. */
function answers(bytes: Uint8Array, decompressFrame?: FrameDecompressor, slice = 1 << 16) {
  const log = new LensLog({ checksum, ...(decompressFrame === undefined ? {} : { decompressFrame }) })
  for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
  log.finish()
  return {
    events: Array.from({ length: log.length }, (_, i) => log.rawEvent(i)),
    diagnostics: log.diagnostics,
    strict: strictResults(log),
    plainBytes: log.progress.plainBytes,
  }
}

function expectSameAnswers(bytes: Uint8Array, slice?: number): void {
  expect(answers(bytes, undefined, slice)).toStrictEqual(answers(bytes, fzstdFrameDecompressor, slice))
}

/** Each complete frame with the declared size the container read for it. */
function framesWithDeclaredSizes(bytes: Uint8Array): { frame: Uint8Array; declared: number }[] {
  const seen: { frame: Uint8Array; declared: number }[] = []
  const container = new ZstdContainer(
    { frame: () => undefined, tornFrame: () => undefined, diagnostic: () => undefined },
    undefined,
    (frame, _index, _offset, declared) => {
      seen.push({ frame: frame.slice(), declared: declared ?? -1 })
      return decompress(frame)
    },
  )
  container.push(bytes)
  container.finish()
  return seen
}

describe('zstd frames through libzstd (WebAssembly)', () => {
  it('compiles here (synchronously, from the module zstddec embeds), so the comparisons below really use it', () => {
    expect(decoder).not.toBeNull()
    // One decoder per thread: every later call hands back the same instance.
    expect(zstdDecoder()).toBe(decoder)
  })

  it('decodes every frame of a clean log itself, to exactly the bytes fzstd gives', () => {
    const seen = framesWithDeclaredSizes(clean)
    expect(seen.length).toBe(frames.length)
    expect(seen.length).toBeGreaterThan(100)
    for (const { frame, declared } of seen) {
      // The harness's one-shot compressor declares every frame's size: the fast path's condition.
      expect(declared).toBeGreaterThan(0)
      expect(declared).toBeLessThanOrEqual(WASM_FRAME_MAX)
      const direct = decoder?.decode(frame, declared) ?? new Uint8Array(0)
      expect(direct.length).toBe(declared)
      expect(sameBytes(direct, decompress(frame))).toBe(true)
      // Returned as checked: libzstd checked the content checksum (a flipped one is refused, below).
      const decoded = wasm(frame, 0, 0, declared)
      expect(decoded).toMatchObject({ checksumChecked: true })
      expect(sameBytes(decoded instanceof Uint8Array ? decoded : decoded.plaintext, direct)).toBe(true)
    }
  })

  it('is what a LensLog decodes with when no decompressor is given (every host: the worker, the CLI, lens serve)', () => {
    const decode = vi.spyOn(decoder as NonNullable<typeof decoder>, 'decode')
    try {
      answers(clean)
      expect(decode).toHaveBeenCalledTimes(frames.length)
    } finally {
      decode.mockRestore()
    }
  })

  it('checks each content checksum itself, so the container does not check again what it accepts', () => {
    const seen = framesWithDeclaredSizes(clean).slice(0, 200)
    expect(seen.length).toBe(200)
    for (const { frame, declared } of seen) {
      const flipped = frame.slice()
      flipped[flipped.length - 1] = (flipped.at(-1) as number) ^ 0x5a
      expect(decoder?.decode(flipped, declared).length).not.toBe(declared)
      // Refused, so the frame goes to fzstd, whose plaintext the container checks with XXH64.
      expect(wasm(flipped, 0, 0, declared)).toBeInstanceOf(Uint8Array)
    }
  })

  it('reads a clean log exactly as fzstd does, in any slicing', () => {
    for (const slice of [1 << 16, 997, 8 << 20]) expectSameAnswers(clean, slice)
  })

  it('reports a corrupt payload, a bad checksum, a wrong declared size and a torn final frame as fzstd does', () => {
    const [start, end] = frames[Math.floor(frames.length / 2)] as [number, number]
    const payload = mutateBytes(clean, [{ kind: 'flip', at: start + Math.floor((end - start) / 2), value: 0x5a }])
    const badChecksum = mutateBytes(clean, [{ kind: 'flip', at: end - 2, value: 0x5a }])
    // A frame declaring one byte more than it holds: libzstd refuses it, and so must the answer be fzstd's.
    const first = framesWithDeclaredSizes(clean.subarray(start, end))[0]
    expect(first?.declared).toBeGreaterThan(0)
    const [lastStart, lastEnd] = frames.at(-1) as [number, number]
    const torn = clean.slice(0, lastStart + Math.floor((lastEnd - lastStart) / 2))
    for (const damaged of [payload, badChecksum, withDeclaredSizePlusOne(clean, start), torn]) {
      const ours = answers(damaged)
      expect(ours).toStrictEqual(answers(damaged, fzstdFrameDecompressor))
      expect(ours.diagnostics.some((d) => d.code.startsWith('zstd-'))).toBe(true)
    }
  })

  it('leaves frames without a declared size to fzstd, with the same answers', () => {
    // Compressed from a pipe, the zstd CLI cannot declare a frame's size.
    const header = zstdFrame(`${headerLine(streamSession(presetOptions('10k', 3)).header)}\n`)
    expect(framesWithDeclaredSizes(header)[0]?.declared).toBe(-1)
    expectSameAnswers(header)
  })

  it('random byte flips and cuts anywhere: the same answers as fzstd alone', () => {
    const small = clean.subarray(0, (frames[12] as [number, number])[1])
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('flip' as const),
              at: fc.nat(small.length - 1),
              value: fc.integer({ min: 0, max: 255 }),
            }),
            fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(small.length - 1) }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.integer({ min: 1, max: 4096 }),
        (mutations, slice) => expectSameAnswers(mutateBytes(small, mutations), slice),
      ),
      { numRuns: 120 },
    )
  })

  it.runIf(fixturesAvailable())('reads every real zstd fixture exactly as fzstd does', () => {
    const fixtures = listZstdFixtures()
    expect(fixtures.length).toBeGreaterThan(0)
    for (const fixture of fixtures) expectSameAnswers(new Uint8Array(readFileSync(fixture.path)))
  })
})

/** Byte equality without a deep-equality walk per element (thousands of frames). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0
}

/** `bytes` with the Frame_Content_Size of the frame at `start` increased by one (its header otherwise unchanged). */
function withDeclaredSizePlusOne(bytes: Uint8Array, start: number): Uint8Array {
  const out = bytes.slice()
  const fhd = out[start + 4] as number
  const single = (fhd >> 5) & 1
  const dictSize = [0, 1, 2, 4][fhd & 3] as number
  const fcsSize = [single ? 1 : 0, 2, 4, 8][fhd >> 6] as number
  // Little-endian add-one with carry over the field (the 2-byte form's +256 offset does not change an increment).
  let at = start + 5 + (single ? 0 : 1) + dictSize
  for (let i = 0; i < fcsSize; i++, at++) {
    out[at] = ((out[at] as number) + 1) & 0xff
    if (out[at] !== 0) break
  }
  return out
}
