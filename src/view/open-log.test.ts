/** OpenLog against the real harness fixtures (read in place) and their `expected/` answers. */

import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { OpenLog } from './open-log.ts'
import { TOO_DEEP_NOTE } from './safe-json.ts'
import { stateAt } from './cursor-query.ts'
import { summaries, transcriptRows } from './rows-query.ts'
import { DetailQueries } from './detail-query.ts'

const details = new DetailQueries()

const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/dsh/', import.meta.url))
const present = existsSync(FIXTURES)
if (!present && process.env.CI === 'true') {
  throw new Error(`fixtures missing at ${FIXTURES}: CI needs the shared/ checkout next to this repository`)
}
if (!present) console.log(`open-log.test: skipping fixture tests, ${FIXTURES} is missing`)

interface Expected {
  eventCount: number
  nodes?: number[]
  replacements?: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
  messageCount?: number
  foldError?: string
  deriveError?: string
}

async function load(bytes: Uint8Array, name = 'test.jsonl', sliceBytes = 64 * 1024): Promise<OpenLog> {
  const session = await OpenLog.create()
  session.begin(name, bytes.length)
  for (let offset = 0; offset < bytes.length; offset += sliceBytes) session.push(bytes.subarray(offset, offset + sliceBytes))
  session.finish()
  return session
}

const names = present ? readdirSync(FIXTURES).filter((n) => n.endsWith('.jsonl')) : []

describe.skipIf(!present)('OpenLog on the real fixtures', () => {
  it.each(names)('%s matches the harness at the last event', async (name) => {
    const expected = JSON.parse(readFileSync(`${FIXTURES}expected/${name.replace(/\.jsonl$/, '.json')}`, 'utf8')) as Expected
    const session = await load(readFileSync(FIXTURES + name))
    const summary = session.summary()
    expect(summary.length).toBe(expected.eventCount)
    if (expected.foldError !== undefined) {
      expect(summary.firstViolation?.message).toBe(expected.foldError)
      return
    }
    const state = stateAt(session, summary.length - 1)
    expect(Array.from(state.surfaceSeqs)).toStrictEqual(expected.nodes)
    expect(
      summary.replacements.map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: r.shadowedSeqs })),
    ).toStrictEqual(expected.replacements)
    expect(state.replacementCount).toBe(expected.replacements?.length)
    expect(summary.replaceLayout.count).toBe(summary.replacements.length)
    if (expected.deriveError === undefined) expect(state.messageCount).toBe(expected.messageCount)
  })

  it('answers cursor queries on the replace fixture: before and after the replace', async () => {
    const session = await load(readFileSync(`${FIXTURES}acp--agent-instructions--session.jsonl`))
    const before = stateAt(session, 16)
    expect(Array.from(before.surfaceSeqs)).toContain(5)
    expect(before.replacementCount).toBe(0)
    const after = stateAt(session, 17)
    expect(Array.from(after.surfaceSeqs)).not.toContain(5)
    expect(Array.from(after.surfaceSeqs)).toContain(17)
    expect(after.replacementCount).toBe(1)

    const [shadowed] = summaries(session, [5])
    expect(shadowed?.surface).toStrictEqual({ enteredIndex: 5, shadowedBySeq: 17, shadowedAtIndex: 17 })
    const [replacement] = summaries(session, [17])
    expect(replacement?.kind).toBe('replacement')
    expect(replacement?.replace).toMatchObject({ start: 5, end: 5, kind: 'summary', shadowedCount: 1 })

    // Counterparts: the shadowed message points at the replacement once it landed, at itself before.
    expect(details.detail(session, 5, 44)?.surfaceCounterpart).toBe(17)
    expect(details.detail(session, 5, 16)?.surfaceCounterpart).toBe(5)
    expect(details.detail(session, 17, 44)?.transcriptCounterparts).toStrictEqual([5])
    expect(details.detail(session, 17, 44)?.replacement?.compactionId).toBe('workspace-context-fixture')
  })

  it('keeps chunk runs to one transcript row and lists message rows apart', async () => {
    const session = await load(readFileSync(`${FIXTURES}acp--bash-tool-turn--session.jsonl`))
    const last = session.summary().length - 1
    const state = stateAt(session, last)
    const all = transcriptRows(session, 'all', 0, state.allRowCount)
    const messages = transcriptRows(session, 'messages', 0, state.messageRowCount)
    expect(messages.rows.every((r) => r.kind === 'message')).toBe(true)
    expect(all.rows.filter((r) => r.kind === 'chunk-run').every((r) => r.span >= 1)).toBe(true)
    expect(all.rows.reduce((n, r) => n + r.span, 0)).toBe(last + 1)
    const assistant = messages.summaries.find((s) => s.role === 'assistant')
    expect(assistant?.reasoning.length).toBeGreaterThan(0)
    expect(assistant?.toolCalls[0]?.name).toBe('bash')
  })

  it('labels upgraded legacy events and keeps their on-disk JSON', async () => {
    const session = await load(readFileSync(`${FIXTURES}web--code-mode-round--session.jsonl`))
    const summary = session.summary()
    expect(summary.upgradedEvents).toBeGreaterThan(0)
    const detail = details.detail(session, 205, summary.length - 1)
    expect(detail?.summary.upgraded).toBe(true)
    expect(detail?.onDiskJson).not.toBeNull()
    expect(detail?.summary.role).toBe('assistant')
  })

  it('decodes the zstd containers to the same state as the plain logs', async () => {
    for (const name of readdirSync(`${FIXTURES}zstd`)) {
      const zstd = await load(readFileSync(`${FIXTURES}zstd/${name}`), name)
      const plain = await load(readFileSync(FIXTURES + name.replace(/\.zstd$/, '')))
      const last = plain.summary().length - 1
      expect(zstd.summary().encoding).toBe('zstd')
      expect(Array.from(stateAt(zstd, last).surfaceSeqs)).toStrictEqual(Array.from(stateAt(plain, last).surfaceSeqs))
    }
  })

  it('reports a garbage line with its line number and keeps the rest', async () => {
    const lines = readFileSync(`${FIXTURES}acp--bash-tool-turn--session.jsonl`, 'utf8').split('\n')
    lines.splice(3, 0, '{not json at all')
    const session = await load(new TextEncoder().encode(lines.join('\n')))
    const summary = session.summary()
    expect(summary.diagnosticCount).toBeGreaterThan(0)
    expect(summary.diagnostics.some((d) => d.line === 4)).toBe(true)
    expect(summary.length).toBeGreaterThan(10)
  })
})

describe('OpenLog without fixtures', () => {
  it('reads a Blob in slices, and stops when told to', async () => {
    const text = [
      '{"type":"session","version":0,"id":"s","createdAt":0}',
      '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
      '',
    ].join('\n')
    const session = await OpenLog.create()
    session.begin('blob.jsonl', text.length)
    expect(await session.loadBlob(new Blob([text]), () => true)).toBe(true)
    session.finish()
    expect(session.summary().length).toBe(1)
    expect(stateAt(session, 99).index).toBe(0)
    session.begin('again.jsonl', text.length)
    expect(await session.loadBlob(new Blob([text]), () => false)).toBe(false)
    session.finish(true)
    expect(session.summary()).toMatchObject({ length: 0, cancelled: true, name: 'again.jsonl' })
  })

  it('shows an event nested deeper than JSON.stringify can print, in rows and in the inspector', async () => {
    // JSON.parse takes 100,000 levels; JSON.stringify throws a RangeError on them.
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const text = [
      '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}',
      `{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"},"deep":${deep}},"surfaceOp":"append"}`,
      `{"type":"todo/write","seq":1,"time":0,"data":${deep}}`,
      '',
    ].join('\n')
    const session = await OpenLog.create()
    session.begin('deep.jsonl', text.length)
    session.push(new TextEncoder().encode(text))
    session.finish()
    expect(session.summary().length).toBe(2)
    expect(() => summaries(session, [0, 1])).not.toThrow()
    for (const index of [0, 1]) {
      const detail = details.detail(session, index, 1)
      expect(detail).not.toBeNull()
      expect(detail?.rawJson).toBe(TOO_DEEP_NOTE)
    }
    expect(summaries(session, [0])[0]?.text).toBe('hi')
  })

  it('answers an empty log without throwing', async () => {
    const session = await OpenLog.create()
    session.begin('empty', 0)
    session.finish()
    expect(stateAt(session, 0)).toMatchObject({ index: -1, messageRowCount: 0 })
    expect(session.summary().diagnosticCount).toBeGreaterThan(0)
  })
})

describe('OpenLog replace-graph layout', () => {
  const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}\n'
  const message = (seq: number, surfaceOp: unknown, extra: Record<string, unknown> = {}) =>
    `${JSON.stringify({ type: 'user/message', seq, time: seq, data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `m${seq}` }], source: { kind: 'user' } }, surfaceOp, ...extra })}\n`
  // Each odd seq replaces the even one before it.
  const pair = (k: number) =>
    message(2 * k, 'append') + message(2 * k + 1, { op: 'replace', start: 2 * k, end: 2 * k }, { sourceEventSeqs: [2 * k] })

  it('lays out every replacement as the log grows, and once more in full at the end', async () => {
    const session = await OpenLog.create()
    const encode = (text: string) => new TextEncoder().encode(text)
    session.begin('live.jsonl', null)
    session.push(encode(HEADER + pair(0) + pair(1)))
    const early = session.summary()
    expect(early.replacements.length).toBe(2)
    expect(early.replaceLayout.count).toBe(2)
    session.push(encode(pair(2) + pair(3)))
    const grown = session.summary()
    expect(grown.replaceLayout.count).toBe(4)
    expect(session.summary().replaceLayout).toBe(grown.replaceLayout)
    session.finish()
    const final = session.summary().replaceLayout
    expect(final.count).toBe(4)
    expect(final.leaves.map((l) => l.label)).toStrictEqual(['#0', '#2', '#4', '#6'])
  })
})
