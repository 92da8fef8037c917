/**
 * Redaction keeps the session and removes the secrets: on every fixture (nothing to remove: byte-identical), on the
 * planted corpus in every place and container, and on 300 generated logs with planted secrets (JSONL or zstd, plain
 * deltas or packed rows), the redacted log folds to the same nodes and replacements under the harness's own fold,
 * has the same events (only strings differ) and holds no planted secret in any JSON-escaped form, decoded or raw.
 */

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { plantedValues } from '../../test-support/planted-secrets.ts'
import { decodeLog, redactionProblem } from '../../test-support/redaction-oracle.ts'
import { corpusLog, plantSecrets, plantedJsonl, plantedZstd, type PlantPlace } from '../../test-support/secret-log.ts'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { placeholder, scanSecrets, secretHash } from '../secrets/index.ts'
import { rawZstdFrame, redactLog } from './index.ts'

const checksum = await loadContentChecksum()
const encodeFrame = (plaintext: Uint8Array): Uint8Array => rawZstdFrame(plaintext, checksum)

function redact(bytes: Uint8Array, options: { allow?: Set<string>; redactPaths?: boolean } = {}) {
  const log = decodeLog(bytes)
  const scan = scanSecrets(log)
  return { scan, out: redactLog(bytes, log, scan, { ...options, encodeFrame, checksum }) }
}

describe.runIf(fixturesAvailable())('fixtures', () => {
  it.each(listFixtures().map((f) => [f.name, f.path]))('%s stays byte-identical (no secret in it)', (_, path) => {
    const bytes = new Uint8Array(readFileSync(path))
    const { out } = redact(bytes)
    expect(out.redactions).toBe(0)
    expect(Buffer.from(out.bytes).equals(Buffer.from(bytes))).toBe(true)
  })
  it.each(listZstdFixtures().map((f) => [f.name, f.path]))('%s stays zstd, the same session', (_, path) => {
    const bytes = new Uint8Array(readFileSync(path))
    const { out } = redact(bytes, { redactPaths: true })
    expect(out.encoding).toBe('zstd')
    expect(redactionProblem(bytes, out.bytes, [])).toBeNull()
    // Nothing to replace: every frame is copied as the harness compressed it.
    if (out.paths === 0) expect(Buffer.from(out.bytes).equals(Buffer.from(bytes))).toBe(true)
  })
})

const chooser = (seed: number) => {
  let s = seed >>> 0
  return (max: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s % (max + 1)
  }
}

describe('the planted corpus', () => {
  const places: PlantPlace[] = ['user', 'tool-result', 'tool-arguments', 'assistant-text', 'reasoning', 'summary']
  for (const place of places)
    it(`is redacted in ${place}, in JSONL and zstd, plain and packed`, () => {
      const { events, plants } = corpusLog(place, 5)
      const secrets = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
      for (const pack of [false, true]) {
        const jsonl = plantedJsonl(events, pack)
        for (const bytes of [new TextEncoder().encode(jsonl), plantedZstd(jsonl)]) {
          const { out } = redact(bytes)
          expect(redactionProblem(bytes, out.bytes, secrets)).toBeNull()
          expect(out.redactions).toBeGreaterThanOrEqual(secrets.length)
          expect(scanSecrets(decodeLog(out.bytes)).findings).toStrictEqual([])
        }
      }
    })

  it('writes one placeholder per secret: its kind and hash, the same wherever it stood', () => {
    const { events, plants } = corpusLog('assistant-text', 6)
    const { out } = redact(new TextEncoder().encode(plantedJsonl(events, true)))
    const text = new TextDecoder().decode(out.bytes)
    for (const plant of plants) {
      const mark = placeholder(plant.secret.kind, secretHash(plant.secret.value))
      // The message and its stream each say it once.
      expect(text.split(mark).length - 1, plant.secret.kind).toBeGreaterThanOrEqual(2)
    }
  })

  it('keeps an allowed value and removes the others', () => {
    const { events, plants } = corpusLog('user', 8)
    const bytes = new TextEncoder().encode(plantedJsonl(events, false))
    const kept = plants[0]!.secret.value
    const { out } = redact(bytes, { allow: new Set([secretHash(kept)]) })
    expect(new TextDecoder().decode(out.bytes).includes(kept)).toBe(true)
    expect(out.allowed).toBe(1)
    const others = plants.slice(1).flatMap((p) => plantedValues(p.secret).map((v) => v.value))
    expect(redactionProblem(bytes, out.bytes, others)).toBeNull()
  })

  it('with redactPaths replaces the home directory and user@, nothing else', () => {
    const { events } = corpusLog('user', 9)
    ;(events[0]!['data'] as { content: { text: string }[] }).content[0]!.text =
      'cd /home/alice/proj && ssh alice@build && ls C:\\Users\\alice\\src; alice wrote it'
    const bytes = new TextEncoder().encode(plantedJsonl(events, false))
    const { out } = redact(bytes, { redactPaths: true })
    const text = new TextDecoder().decode(out.bytes)
    expect(text).toContain('cd /home/user/proj && ssh user@build && ls C:\\\\Users\\\\user\\\\src; alice wrote it')
    expect(text).not.toContain('/home/alice')
    expect(out.paths).toBeGreaterThanOrEqual(4)
    expect(redactionProblem(bytes, out.bytes, [])).toBeNull()
  })
})

describe('generated logs with planted secrets', () => {
  it('redact to the same session with no secret left (300 logs)', () => {
    fc.assert(
      fc.property(validLogArb, fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), fc.boolean(), (events, seed, pack, zstd) => {
        const { events: planted, plants } = plantSecrets(events, chooser(seed), seed)
        const jsonl = plantedJsonl(planted, pack)
        const bytes = zstd ? plantedZstd(jsonl) : new TextEncoder().encode(jsonl)
        const { out } = redact(bytes)
        const secrets = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
        expect(redactionProblem(bytes, out.bytes, secrets)).toBeNull()
      }),
      { numRuns: 300 },
    )
  }, 240_000)
})
