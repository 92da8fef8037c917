/**
 * Fuzzing the decoder through LensLog: random bytes, JSON-ish garbage, valid logs with bytes flipped, lines cut and
 * newlines inserted, and multi-frame zstd logs with frames truncated, duplicated, reordered and flipped. For every
 * input: nothing throws from push/finish or any accessor the worker uses; every line JSON.parse accepts is kept
 * (an independent line oracle counts them); the work is linear in the bytes (characters handed to JSON.parse,
 * counted, stay within a small multiple of the plaintext); and where the damage leaves a plaintext we can compute
 * (plain JSONL, whole frames), the strict results equal the harness's fold of exactly the events that parse.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { zstdEachFrame, zstdFrame } from '../../test-support/zstd-frames.ts'
import {
  concatBytes,
  lineOracle,
  mutateBytes,
  readAll,
  recordsKept,
  refusedRows,
  strictResults as strict,
  type ByteMutation,
} from '../../test-support/fuzz-kit.ts'
import type { LensLog } from '../log/lens-log.ts'
import { notALog } from './not-a-log.ts'
import { loadContentChecksum } from './xxh64.ts'

const checksum = await loadContentChecksum()
const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}'
/** Characters JSON.parse may see per plaintext byte (each line once at decode, once more on demand, the header
 * twice), plus a constant: a quadratic re-parse anywhere blows through it on the larger inputs. */
const PARSE_BUDGET_PER_BYTE = 4

/**
 * Every record kept: a body line that parses is a record unless it is a packed row that does not validate. Input that
 * is no log at all (binary in its first KiB: not-a-log.ts) is the exception: one diagnostic says so, nothing is kept.
 */
function expectEveryParsableLineKept(log: LensLog, plaintext: Uint8Array): void {
  if (log.encoding !== 'zstd') {
    const refused = notALog(plaintext) !== null
    expect(log.diagnostics.some((d) => d.code === 'not-a-log')).toBe(refused)
    if (refused) {
      expect(log.diagnostics).toHaveLength(1)
      expect(recordsKept(log)).toBe(0)
      return
    }
  }
  const oracle = lineOracle(plaintext)
  const firstTaken = log.header === null && oracle.firstLooksLikeEvent ? 1 : 0
  expect(recordsKept(log) + refusedRows(log)).toBe(oracle.parsableBody + firstTaken)
}

function expectLinearWork(parsedChars: number, plainBytes: number): void {
  expect(parsedChars).toBeLessThanOrEqual(PARSE_BUDGET_PER_BYTE * plainBytes + 4096)
}

/** The harness folds exactly the events that parse; our strict results must be its results. */
function expectHarnessOnParsedEvents(log: LensLog, plaintext: Uint8Array): void {
  const oracle = lineOracle(plaintext)
  // A first line that is an event rather than a header is read as an event too (the harness refuses such a log).
  const events = log.header === null && oracle.firstLooksLikeEvent ? [...oracle.firstEvents, ...oracle.events] : oracle.events
  expect(log.length).toBe(events.length)
  for (let i = 0; i < events.length; i++) expect(log.event(i)).toStrictEqual(events[i])
  const harness = harnessVerdict(events)
  const ours = strict(log)
  expect(ours.error).toStrictEqual(harness.error)
  expect(ours.nodes).toStrictEqual(harness.nodes)
  expect(ours.replacements).toStrictEqual(harness.replacements)
}

const byteMutationArb: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('newline' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
)

/** Lines that are sometimes JSON and sometimes not, so the "kept" count is exercised on both sides. */
const jsonishLineArb = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\r', '{"seq":0}', '{"type":"text-chunks","seq0":0}', '[]', 'null', '"\\ud800"', '1e999', '{'),
)

describe('decoder fuzz: nothing escapes, every parsable line is kept, work is linear', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.integer({ min: 1, max: 512 }), (bytes, slice) => {
        const { log, parsedChars } = readAll(bytes, checksum, slice)
        if (log.encoding !== 'zstd') expectEveryParsableLineKept(log, bytes)
        expectLinearWork(parsedChars, bytes.length)
      }),
      { numRuns: 500 },
    )
  })

  it('random bytes behind a zstd magic', () => {
    const magic = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd])
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.integer({ min: 1, max: 512 }), (bytes, slice) => {
        const { log } = readAll(concatBytes([magic, bytes]), checksum, slice)
        expect(log.encoding).toBe('zstd')
        expect(log.diagnostics.length).toBeGreaterThan(0)
      }),
      { numRuns: 300 },
    )
  })

  it('JSON-ish lines after a header (and without one)', () => {
    fc.assert(
      fc.property(fc.array(jsonishLineArb, { maxLength: 40 }), fc.boolean(), fc.boolean(), (lines, withHeader, finalNewline) => {
        const text = (withHeader ? [HEADER, ...lines] : lines).join('\n') + (finalNewline ? '\n' : '')
        const bytes = new TextEncoder().encode(text)
        const { log, parsedChars } = readAll(bytes, checksum, 97)
        expectEveryParsableLineKept(log, bytes)
        expectLinearWork(parsedChars, bytes.length)
      }),
      { numRuns: 500 },
    )
  })

  it('valid JSONL logs with bytes flipped, lines cut, newlines inserted, the tail truncated: the harness on what parses', () => {
    fc.assert(
      fc.property(
        validLogArb,
        fc.array(byteMutationArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 4096 }),
        (events, mutations, slice) => {
          const clean = toJsonlBytes(packRecords(events))
          // Damage the body only: a broken header makes line 1 a different question (covered above).
          const bodyStart = clean.indexOf(0x0a) + 1
          const bytes = mutateBytes(clean, mutations, bodyStart)
          // Legacy upgrades would change what the harness is handed; they have their own lane.
          const { log, parsedChars } = readAll(bytes, checksum, slice, false)
          expectEveryParsableLineKept(log, bytes)
          expectLinearWork(parsedChars, bytes.length)
          expectHarnessOnParsedEvents(log, bytes)
        },
      ),
      { numRuns: 400 },
    )
  })
})

describe('zstd container fuzz', () => {
  /** A valid log as header frame + 1..4 body frames, with each frame's plaintext. */
  const framedLogArb = fc.tuple(validLogArb, fc.integer({ min: 1, max: 4 })).map(([events, batches]) => {
    const records = packRecords(events).map((r) => JSON.stringify(r) + '\n')
    const per = Math.max(1, Math.ceil(records.length / batches))
    const plaintexts = [HEADER + '\n']
    for (let i = 0; i < records.length; i += per) plaintexts.push(records.slice(i, i + per).join(''))
    return plaintexts
  })
  const encoder = new TextEncoder()

  it('whole frames duplicated and reordered: every line of the resulting plaintext kept, the harness on what parses', () => {
    fc.assert(
      fc.property(
        framedLogArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 999 }),
        (plaintexts, order, slice) => {
          const frames = zstdEachFrame(plaintexts)
          // The new frame sequence: indices into the original frames, so duplicates and reorders both happen.
          const picks = order.map((n) => n % frames.length)
          const bytes = concatBytes(picks.map((i) => frames[i] as Uint8Array))
          const plain = encoder.encode(picks.map((i) => plaintexts[i]).join(''))
          const { log, parsedChars } = readAll(bytes, checksum, slice, false)
          expect(log.encoding).toBe('zstd')
          expectEveryParsableLineKept(log, plain)
          expectLinearWork(parsedChars, plain.length)
          expectHarnessOnParsedEvents(log, plain)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('truncated or flipped frames: nothing escapes, a defect is reported or nothing changed, what is kept is a prefix of the clean log', () => {
    fc.assert(
      fc.property(
        framedLogArb,
        fc.nat(),
        fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
        fc.integer({ min: 1, max: 999 }),
        (plaintexts, where, flip, slice) => {
          const frames = zstdEachFrame(plaintexts)
          const bytes = concatBytes(frames)
          const boundaries = new Set<number>([0])
          frames.reduce((end, f) => (boundaries.add(end + f.length), end + f.length), 0)
          const plain = encoder.encode(plaintexts.join(''))
          const clean = lineOracle(plain).events
          const at = where % bytes.length
          const damaged = flip === undefined ? bytes.slice(0, at) : mutateBytes(bytes, [{ kind: 'flip', at, value: flip }])
          const { log, parsedChars } = readAll(damaged, checksum, slice, false)
          // A changed byte can make a block an RLE block of up to 128 KB: zstd legitimately expands a few bytes into
          // far more plaintext than the clean log had (seed 429907195: 80 bytes → 114,816). Work is linear in what
          // the decoder produced, so that is the measure here.
          expectLinearWork(parsedChars, Math.max(plain.length, log.progress.plainBytes) + damaged.length)
          const kept = Array.from({ length: log.length }, (_, i) => log.event(i))
          // (open-turn is about the clean log itself: generated logs may end inside a turn.)
          const defects = log.diagnostics.filter((d) => d.code !== 'open-turn')
          if (flip === undefined) {
            // A cut inside a frame is a torn frame; what is kept is a prefix of the clean log.
            if (!boundaries.has(at)) expect(defects.length).toBeGreaterThan(0)
            expect(kept).toStrictEqual(clean.slice(0, kept.length))
          } else if (defects.length === 0) {
            // A changed byte is caught by the frame walk, the block decoder or the XXH64 checksum, unless it lands
            // where zstd ignores it (e.g. the window size of a single-segment frame): then nothing changed.
            expect(kept).toStrictEqual(clean)
          }
        },
      ),
      { numRuns: 80 },
    )
  })

  it('a flipped frame descriptor that turns the first block into a 114,816-byte RLE block (seed 429907195)', () => {
    // Byte 4 becomes 0xb0: a 4-byte content size, no checksum; the next bytes then read as an RLE block header.
    const damaged = mutateBytes(zstdFrame(`${HEADER}\n`), [{ kind: 'flip', at: 4, value: 0xb0 }])
    const { log, parsedChars } = readAll(damaged, checksum, 1, false)
    expect(log.progress.plainBytes).toBe(114_816)
    expect(log.length).toBe(0)
    expect(log.diagnostics.map((d) => d.code)).toStrictEqual(['zstd-torn-frame', 'header-invalid-json'])
    expectLinearWork(parsedChars, log.progress.plainBytes)
  })
})
