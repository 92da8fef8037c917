/**
 * The worker's `step-request`, `step-list` and `step-request-json` answers, asked through the real protocol (the
 * in-thread client runs the same host as the worker), against what `lens request --json` prints: the CLI itself
 * on the bundled demo, and the CLI's reader + builder on every real fixture. A live load is queried while it grows.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, stepList, stepPositionAt, stepRequest, stepSpans } from '../core/index.ts'
import { readLog } from '../cli/read-log.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import { fixturesAvailable, listFixtures } from '../test-support/shared-fixtures.ts'
import type { StepRequestAnswer } from '../protocol/step-request.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import type { LensClient } from '../protocol/lens-client.ts'
import { streamInto } from '../test-support/worker-stream.ts'

const ROOT = new URL('../../', import.meta.url).pathname
// The bundled demo, generated here (a fresh clone has no public/demo/ until `npm run demo`): the CLI reads a path.
const DEMO = join(mkdtempSync(join(tmpdir(), 'lens-demo-')), 'demo-session.jsonl')
writeFileSync(DEMO, demoSessionJsonl())
const TSX = join(ROOT, 'node_modules/.bin/tsx')

let client: LensClient | undefined
afterEach(() => client?.dispose())

async function loaded(path: string): Promise<LensClient> {
  const c = createInThreadClient()
  client = c
  await streamInto(c, [readFileSync(path)], false, true)
  return c
}

/** The worker's answer for every step equals the CLI builder's JSON over the CLI's reader. */
async function expectSameAsCli(path: string): Promise<void> {
  const log = await readLog(path)
  const c = await loaded(path)
  const { steps } = await c.query('step-list', {})
  expect(steps).toStrictEqual(stepList(log))
  const spans = stepSpans(log)
  for (let p = 0; p < spans.length; p++) {
    const { turn, step } = spans[p] as { turn: number; step: number }
    const expected = stepRequest(log, p)
    if (expected === undefined) throw new Error('no request')
    const answer = await c.query('step-request', { target: { turn, step }, have: null })
    // A T.S that repeats (a restarted turn number) resolves to its first step, as the CLI's --step does.
    const first = spans.findIndex((s) => s.turn === turn && s.step === step)
    if (first !== p) continue
    expect(answer.position).toBe(p)
    expect(answer.stepCount).toBe(spans.length)
    const { messages, ...rest } = expected
    expect(answer.request).toStrictEqual({ ...rest, messageCount: messages.length })
    expect(answer.rows.map((r) => r.seq)).toStrictEqual(messages.map((m) => m.seq))
    expect(answer.rows.map((r) => r.role)).toStrictEqual(messages.map((m) => (m.message as { role: string }).role))
    if (expected.diff.headerChanged.length > 0 && p > 0) {
      const before = stepRequest(log, p - 1)?.header ?? null
      const tools = (h: Record<string, unknown> | null) =>
        Array.isArray(h?.['tools']) ? (h['tools'] as { name?: unknown }[]).map((t) => t.name) : []
      expect(answer.headerChange).toStrictEqual({
        previousConfig: before?.['config'] ?? null,
        toolsAdded: tools(expected.header).filter((n) => !tools(before).includes(n)),
        toolsRemoved: tools(before).filter((n) => !tools(expected.header).includes(n)),
      })
    } else expect(answer.headerChange).toBeNull()
    const text = await c.query('step-request-json', { turn, step })
    expect(text.text).toBe(`${JSON.stringify(expected)}\n`)
    expect(text.fileName).toBe(`request-${turn}.${step}.json`)
  }
}

describe('step-request queries', () => {
  it('equal the CLI process byte for byte on the demo (--list and a step after a compaction)', async () => {
    const cli = (args: string[]) =>
      spawnSync(TSX, ['src/cli/main.ts', 'request', DEMO, ...args, '--json'], { cwd: ROOT, encoding: 'utf8' })
    const list = cli(['--list'])
    expect(list.status).toBe(0)
    const c = await loaded(DEMO)
    expect(`${JSON.stringify(await c.query('step-list', {}))}\n`).toBe(list.stdout)
    const { steps } = JSON.parse(list.stdout) as { steps: { turn: number; step: number }[] }
    // The first step whose diff replaces messages: the step right after the demo's first compaction.
    const log = await readLog(DEMO)
    const after = steps.findIndex((_, p) => (stepRequest(log, p)?.diff.replacedBy.length ?? 0) > 0)
    expect(after).toBeGreaterThan(0)
    const { turn, step } = steps[after] as { turn: number; step: number }
    const one = cli(['--step', `${turn}.${step}`])
    expect(one.status).toBe(0)
    expect((await c.query('step-request-json', { turn, step })).text).toBe(one.stdout)
    const answer = await c.query('step-request', { target: { turn, step }, have: null })
    const json = JSON.parse(one.stdout) as { messages: { seq: number }[]; diff: unknown }
    expect(answer.request?.messageCount).toBe(json.messages.length)
    expect(answer.request?.diff).toStrictEqual(json.diff)
    await expect(c.query('step-request-json', { turn: 99, step: 99 })).rejects.toThrow('no step 99.99')
  }, 30_000)

  it('by cursor: the step in force at each event (stepPositionAt), and unchanged answers skip', async () => {
    const log = await readLog(DEMO)
    const c = await loaded(DEMO)
    for (const index of [0, 5, 7, 8, 300, 1553, 1560, 1562, 1600, log.length - 1]) {
      const answer = await c.query('step-request', { target: { index }, have: null })
      const position = stepPositionAt(log, index)
      expect(answer.position).toBe(position)
      if (position === -1) expect(answer.request).toBeNull()
      else expect(answer.request?.atSeq).toBe(stepRequest(log, position)?.atSeq)
      const again = await c.query('step-request', { target: { index }, have: answer.key })
      expect(again.unchanged).toBe(position !== -1)
      expect(again.key).toBe(answer.key)
    }
  }, 30_000)

  it('follow a live log as it grows: each answer is the request over the events so far', async () => {
    const bytes = readFileSync(DEMO)
    const lines = bytes.toString('utf8').split(/(?<=\n)/)
    const c = createInThreadClient()
    client = c
    const loadId = c.beginStream('live.jsonl', null, true)
    const checksum = await loadContentChecksum()
    const prefix = new LensLog({ checksum })
    let previousKey: string | null = null
    // Cut where a step is open (no output yet), mid-step, right after a compaction, and at the end.
    for (const cut of [9, 40, 120, 280, lines.length]) {
      const piece = new TextEncoder().encode(lines.slice(0, cut).join(''))
      const already = prefix.progress.inputBytes
      const fresh = piece.subarray(already)
      prefix.push(fresh)
      const grown = new Promise<void>((resolve) => {
        const unsubscribe = c.subscribe((event) => {
          if (event.type === 'summary' && event.loadId === loadId && event.summary.length === prefix.length) {
            unsubscribe()
            resolve()
          }
        })
      })
      c.pushChunk(loadId, new Uint8Array(fresh))
      await grown
      const answer: StepRequestAnswer = await c.query('step-request', {
        target: { index: prefix.length - 1 },
        have: previousKey,
      })
      expect(answer.unchanged).toBe(false)
      const position = stepPositionAt(prefix, prefix.length - 1)
      expect(answer.position).toBe(position)
      const expected = stepRequest(prefix, position)
      if (expected === undefined) throw new Error('no request')
      const { messages, ...rest } = expected
      expect(answer.request).toStrictEqual({ ...rest, messageCount: messages.length })
      expect((await c.query('step-list', {})).steps).toStrictEqual(stepList(prefix))
      previousKey = answer.key
    }
  }, 30_000)
})

/** Two steps whose request headers differ: model a -> b, tool grep removed, edit added. */
function headerChangeLog(): string {
  const events: Record<string, unknown>[] = []
  const add = (type: string, data: unknown, surfaceOp?: string): void => {
    events.push({ type, seq: events.length, time: 1_700_000_000_000 + events.length, data, ...(surfaceOp ? { surfaceOp } : {}) })
  }
  const header = (model: string, tools: string[]) => ({
    reason: 'changed',
    header: {
      config: { provider: 'deepseek', model, reasoningEffort: 'high' },
      system: 'be brief',
      tools: tools.map((name) => ({ name, description: name, inputSchema: {} })),
    },
  })
  const reply = (step: number, text: string) => ({
    turn: 1,
    step,
    message: {
      id: `a${step}`,
      role: 'assistant',
      content: [{ type: 'text', text }],
      source: { kind: 'model', provider: 'deepseek', model: 'x' },
    },
    usage: { inputTokens: 10, outputTokens: 2 },
  })
  add('turn/start', { turn: 1 })
  add('step/start', { turn: 1, step: 1 })
  add('user/message', { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }, 'append')
  add('request/header', header('model-a', ['read', 'grep']))
  add('assistant/message', reply(1, 'hello'), 'append')
  add('step/end', { turn: 1, step: 1 })
  add('step/start', { turn: 1, step: 2 })
  add('request/header', header('model-b', ['read', 'edit']))
  add('assistant/message', reply(2, 'again'), 'append')
  add('step/end', { turn: 1, step: 2 })
  add('turn/end', { turn: 1, reason: { kind: 'done' } })
  const first = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}'
  return [first, ...events.map((e) => JSON.stringify(e))].join('\n') + '\n'
}

it('a header change carries the previous config and the tools added and removed by name', async () => {
  const c = createInThreadClient()
  client = c
  await streamInto(c, [new TextEncoder().encode(headerChangeLog())], false, true)
  const answer = await c.query('step-request', { target: { turn: 1, step: 2 }, have: null })
  expect(answer.request?.diff.headerChanged).toStrictEqual(['model', 'tools-added', 'tools-removed'])
  expect(answer.headerChange).toStrictEqual({
    previousConfig: { provider: 'deepseek', model: 'model-a', reasoningEffort: 'high' },
    toolsAdded: ['edit'],
    toolsRemoved: ['grep'],
  })
  expect((await c.query('step-request', { target: { turn: 1, step: 1 }, have: null })).headerChange).toBeNull()
})

describe.runIf(fixturesAvailable())('step-request queries on every real fixture', () => {
  it.each(listFixtures().map((f) => [f.name, f.path]))('%s: every step equals the CLI JSON', async (_name, path) => {
    await expectSameAsCli(path as string)
  })
})
