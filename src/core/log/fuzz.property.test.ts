/**
 * Hostile values through the whole read path (bytes -> LensLog -> every accessor): JSON nested 100,000 levels deep,
 * 10 MB strings and lines, lone surrogates (escaped and as raw bytes), NUL (escaped and raw), numbers beyond 2^53
 * and beyond a double, keys like `__proto__` / `constructor` / `toString`, planted in every field of valid logs.
 * For every input: nothing escapes, no prototype is polluted, every line that parses is kept, the work is linear
 * (JSON.parse characters counted, and a 10x larger input costs no more than 10x per byte), and the strict results
 * equal the harness's fold of the same parsed events.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import type { TestEvent } from '../../test-support/log-builder.ts'
import { lineOracle, readAll, recordsKept, refusedRows, strictResults as strict } from '../../test-support/fuzz-kit.ts'
import { LensLog } from './lens-log.ts'

const checksum = await loadContentChecksum()
const nonEmptyLogArb = validLogArb.filter((events) => events.length > 0)
const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}'
const encoder = new TextEncoder()
const bytesOf = (lines: readonly string[]) => encoder.encode(lines.join('\n') + '\n')

function expectKeptAndHarness(log: LensLog, bytes: Uint8Array): void {
  const oracle = lineOracle(bytes)
  expect(recordsKept(log) + refusedRows(log)).toBe(oracle.parsableBody)
  expect(log.length).toBe(oracle.events.length)
  const harness = harnessVerdict(oracle.events)
  const ours = strict(log)
  expect(ours.error).toStrictEqual(harness.error)
  expect(ours.nodes).toStrictEqual(harness.nodes)
  expect(ours.replacements).toStrictEqual(harness.replacements)
}

function expectNoPollution(): void {
  for (const key of ['polluted', 'x', 'isAdmin']) expect(({} as Record<string, unknown>)[key]).toBeUndefined()
  expect(Object.getPrototypeOf({})).toBe(Object.prototype)
}

/** An own, enumerable key (plain assignment of `__proto__` would set the prototype instead, and JSON drops it). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))
const hostileStringArb = fc.oneof(
  loneSurrogate,
  fc.tuple(fc.string({ maxLength: 6 }), loneSurrogate, fc.string({ maxLength: 6 })).map((p) => p.join('')),
  fc.constantFrom('\u0000', 'a\u0000b', '\u202e', '\u200b\u200d\ufeff', '<script>x</script>', '__proto__', 'constructor'),
)
const hostileValueArb: fc.Arbitrary<unknown> = fc.oneof(
  hostileStringArb,
  fc.constantFrom<unknown>(2 ** 53 + 1, -(2 ** 53) - 2, 1e308, -0, 0.1 + 0.2, Number.MAX_VALUE),
  fc.constantFrom<unknown>({ polluted: true }, { constructor: { prototype: { polluted: true } } }),
)
/** Where in an event a hostile value goes. */
const FIELDS = [
  'type',
  'seq',
  'time',
  'data',
  'surfaceOp',
  'sourceEventSeqs',
  'text',
  'id',
  'role',
  '__proto__',
  'constructor',
  'toString',
]

function plant(events: TestEvent[], at: number, field: string, value: unknown): void {
  const event = events[at % events.length] as TestEvent
  const data = event['data'] as Record<string, unknown> | undefined
  const rawMessage = typeof data === 'object' && data !== null ? data['message'] : undefined
  const message = typeof rawMessage === 'object' && rawMessage !== null ? (rawMessage as Record<string, unknown>) : undefined
  switch (field) {
    case 'text': {
      const content = message?.['content']
      const block = Array.isArray(content) ? (content[0] as unknown) : undefined
      if (typeof block === 'object' && block !== null) (block as Record<string, unknown>)['text'] = value
      return
    }
    case 'id':
    case 'role':
      if (message !== undefined) message[field] = value
      return
    case '__proto__':
    case 'constructor':
    case 'toString':
      setOwn(event, field, value)
      if (typeof data === 'object' && data !== null) setOwn(data, field, value)
      return
    default:
      event[field] = value
  }
}

describe('hostile values in every field', () => {
  it('planted in valid logs: nothing escapes or pollutes, every line kept, the harness on what parses', () => {
    fc.assert(
      fc.property(
        nonEmptyLogArb,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...FIELDS), hostileValueArb), { minLength: 1, maxLength: 4 }),
        (source, plants) => {
          const events = structuredClone(source)
          for (const [at, field, value] of plants) plant(events, at, field, structuredClone(value))
          // JSON.stringify writes lone surrogates as \udXXX escapes (well-formed JSON.stringify, ES2019).
          const bytes = bytesOf([HEADER, ...events.map((e) => JSON.stringify(e))])
          const { log } = readAll(bytes, checksum, 4093, false)
          expectNoPollution()
          expectKeptAndHarness(log, bytes)
        },
      ),
      { numRuns: 600 },
    )
  })

  it('raw lone surrogates (CESU bytes), raw NUL and other control bytes inside lines', () => {
    fc.assert(
      fc.property(
        nonEmptyLogArb,
        fc.nat(),
        fc.constantFrom(
          [0xed, 0xa0, 0x80], // U+D800 as (invalid) UTF-8
          [0xed, 0xbf, 0xbf], // U+DFFF
          [0x00],
          [0x01, 0x1f],
          [0xc0, 0x80], // overlong NUL
          [0xef, 0xbb, 0xbf], // a BOM mid-file
        ),
        (events, where, raw) => {
          const lines = [HEADER, ...events.map((e) => JSON.stringify(e))]
          const target = 1 + (where % events.length)
          const line = encoder.encode(lines[target] as string)
          // Inside the first string value, so the line stays JSON-shaped around the damage.
          const quote = line.indexOf(0x22, line.indexOf(0x3a)) + 1
          const damaged = new Uint8Array([...line.subarray(0, quote), ...raw, ...line.subarray(quote)])
          const parts = lines.map((l, i) => (i === target ? damaged : encoder.encode(l)))
          const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0))
          let at = 0
          for (const p of parts) {
            bytes.set(p, at)
            bytes[at + p.length] = 0x0a
            at += p.length + 1
          }
          const { log } = readAll(bytes, checksum, 777, false)
          expectKeptAndHarness(log, bytes)
          if (raw[0] === 0xed) expect(log.diagnostics.some((d) => d.code === 'invalid-utf8' && d.line === target + 1)).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('pathological sizes and shapes (examples)', () => {
  const user = (seq: number, content: string, extra = '') =>
    `{"type":"user/message","seq":${seq},"time":1,"surfaceOp":"append","data":{"id":"u${seq}","role":"user","content":${content},"source":{"kind":"user"}}${extra}}`

  it('JSON nested 100,000 levels deep in every field and as whole lines: diagnostics, never a RangeError', () => {
    const depth = 100_000
    const deepArray = '['.repeat(depth) + ']'.repeat(depth)
    const deepObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    const lines = [
      HEADER,
      user(0, deepArray),
      user(1, '[{"type":"text","text":"ok"}]', `,"extra":${deepObject}`),
      `{"type":"tool/result","seq":2,"time":1,"surfaceOp":${deepObject},"data":${deepObject}}`,
      `{"type":"user/message","seq":3,"time":1,"surfaceOp":{"op":"replace","start":0,"end":1},"sourceEventSeqs":${deepArray},"data":${deepObject}}`,
      `{"type":"turn/start","seq":4,"time":1,"data":${deepArray}}`,
      deepArray,
      deepObject,
      '['.repeat(depth), // unterminated: not JSON
    ]
    const bytes = bytesOf(lines)
    const { log, parsedChars } = readAll(bytes, checksum)
    expect(log.length).toBe(7)
    expect(parsedChars).toBeLessThanOrEqual(4 * bytes.length)
    const codes = new Set(log.diagnostics.map((d) => d.code))
    for (const code of ['record-not-object', 'line-invalid-json', 'load-rule']) expect(codes).toContain(code)
    expect(log.diagnostics.find((d) => d.line === 9)?.code).toBe('line-invalid-json')
    // The harness walks the same events; where it answers, we answer the same.
    expect(strict(log).error?.index).toBe(harnessVerdict(lineOracle(bytes).events).error?.index)
  })

  it('a 10 MB string and a 10 MB line: kept whole, work linear (10x the input costs 10x, not 100x)', () => {
    const cost = (mb: number) => {
      const big = 'x'.repeat(mb * 1024 * 1024)
      const lines = [
        HEADER,
        user(0, JSON.stringify([{ type: 'text', text: big }])),
        `{"type":"tool/result","seq":1,"time":1,"data":{"result":"${big}"}}`,
        big, // not JSON
      ]
      const bytes = bytesOf(lines)
      const { log, parsedChars } = readAll(bytes, checksum, 1 << 20)
      expect(log.length).toBe(2)
      expect(((log.event(0)?.data as { content: { text: string }[] }).content[0] as { text: string }).text.length).toBe(
        big.length,
      )
      expect(log.diagnostics.find((d) => d.line === 4)?.code).toBe('line-invalid-json')
      return parsedChars / bytes.length
    }
    const small = cost(1)
    const large = cost(10)
    expect(large).toBeLessThanOrEqual(small * 1.5)
    expect(large).toBeLessThanOrEqual(4)
  })

  it('many small lines: the per-byte work of 200k lines is that of 20k', () => {
    const perByte = (n: number) => {
      const lines = [HEADER]
      for (let i = 0; i < n; i++) lines.push(user(i, `[{"type":"text","text":"m${i}"}]`))
      const bytes = bytesOf(lines)
      return readAll(bytes, checksum).parsedChars / bytes.length
    }
    const small = perByte(20_000)
    expect(perByte(200_000)).toBeLessThanOrEqual(small * 1.2)
  })

  it('a line over the line bound is a line-too-long defect, and its bytes are not kept', () => {
    const log = new LensLog({ checksum, maxLineBytes: 1024 })
    const big = 'y'.repeat(5000)
    const text =
      [HEADER, user(0, '[]'), `{"type":"turn/start","seq":1,"time":1,"data":{"t":"${big}"}}`, user(1, '[]')].join('\n') + '\n'
    const bytes = encoder.encode(text)
    for (let i = 0; i < bytes.length; i += 100) log.push(bytes.subarray(i, i + 100))
    log.finish()
    expect(log.length).toBe(2)
    expect(log.diagnostics.find((d) => d.code === 'line-too-long')).toMatchObject({ line: 3, severity: 'error' })
    expect(log.textChars).toBeLessThan(2000)
  })

  it('a 13-byte zstd frame that declares 512 MB is refused before anything is allocated', () => {
    const log = new LensLog({ checksum })
    log.push(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xb0, 0, 0, 0, 0x20, 0x7b, 0, 0, 0]))
    log.finish()
    expect(log.diagnostics.map((d) => d.code)).toStrictEqual(['zstd-frame-corrupt', 'header-missing'])
    expect(log.progress.plainBytes).toBe(0)
  })

  it('an 83-byte torn zstd tail whose window descriptor asks for 1.9 GB is not decoded (it took fzstd 7.5 s and that memory)', () => {
    // Found by a fuzz of the vendored fzstd: a damaged batch frame cut short; byte 5 (0xa6) is the window descriptor.
    const tail = new Uint8Array([
      0x28, 0xb5, 0x2f, 0xfd, 0x56, 0xa6, 0x00, 0x3d, 0x08, 0x00, 0xd2, 0xcf, 0x2f, 0x22, 0x50, 0x87, 0x38, 0x07, 0x20, 0xc5,
      0x80, 0x88, 0x2c, 0x83, 0xb7, 0x8f, 0x18, 0x11, 0xf2, 0x38, 0x0f, 0x9c, 0xaa, 0x6a, 0x00, 0x61, 0x8f, 0x9d, 0x27, 0xfd,
      0x81, 0x47, 0x37, 0x67, 0xe6, 0xb0, 0xb5, 0x06, 0x00, 0x09, 0x09, 0x88, 0xbf, 0x6d, 0x6e, 0x6e, 0xd0, 0xf3, 0x02, 0x01,
      0xad, 0x9f, 0xc8, 0x0b, 0x15, 0xcd, 0x45, 0xad, 0x5f, 0xb4, 0x60, 0xcc, 0x0b, 0x71, 0x64, 0x89, 0x6d, 0x90, 0xa7, 0x29,
      0x1c, 0x6b, 0x6e,
    ])
    const log = new LensLog({ checksum })
    log.push(tail)
    log.finish()
    const torn = log.diagnostics.find((d) => d.code === 'zstd-torn-frame')
    expect(torn?.message).toContain('(83 bytes, 0 recovered)')
    expect(log.progress.plainBytes).toBe(0)
  })

  it('numbers beyond 2^53 and beyond a double as seq, time and ranges', () => {
    const lines = [
      HEADER,
      user(0, '[]'),
      '{"type":"turn/start","seq":9007199254740993,"time":1e400,"data":{"turn":1}}',
      '{"type":"tool/result","seq":2,"time":-1e400,"surfaceOp":{"op":"replace","start":0,"end":1e999},"sourceEventSeqs":[0],"data":{}}',
    ]
    const bytes = bytesOf(lines)
    const { log } = readAll(bytes, checksum)
    expectKeptAndHarness(log, bytes)
    expect(log.diagnostics.some((d) => d.code === 'seq-gap' || d.code === 'fold-violation')).toBe(true)
  })

  it('__proto__, constructor and prototype keys and types: read as data, never as prototypes', () => {
    const lines = [
      HEADER,
      '{"__proto__":{"polluted":true},"type":"user/message","seq":0,"time":1,"surfaceOp":"append","data":{"__proto__":{"isAdmin":true},"id":"u","role":"user","content":[{"type":"text","text":"x"}],"source":{"kind":"user"}}}',
      '{"type":"__proto__","seq":1,"time":1,"data":{}}',
      '{"type":"constructor","seq":2,"time":1,"data":{"constructor":{"prototype":{"x":1}}}}',
      '{"type":"toString","seq":3,"time":1,"data":{}}',
      '{"type":"hasOwnProperty","seq":4,"time":1,"data":{}}',
    ]
    const bytes = bytesOf(lines)
    const { log } = readAll(bytes, checksum)
    expectNoPollution()
    expectKeptAndHarness(log, bytes)
    expect(log.typeCounts.get('__proto__')).toBe(1)
    expect(log.typeCounts.get('constructor')).toBe(1)
    expect(log.diagnostics.filter((d) => d.code === 'unknown-event-type').map((d) => d.seq)).toStrictEqual([1, 2, 3, 4])
  })
})
