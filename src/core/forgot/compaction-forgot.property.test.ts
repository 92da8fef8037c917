/**
 * What a compaction forgot, on 400 generated logs per run and on the real fixture with a summary. Each generated
 * log is one step (a human request, an assistant message whose tool calls name files by `file_path` or `path`,
 * results for some of them, a todo list, a goal) and one summary over a prefix of the surface; the summary's text
 * mentions each fact by its full path, by its file name only, in another case and spacing, or not at all, and the
 * messages after the summarised range stay on the surface. The expected facts are written from those choices
 * alone, never from our sweep.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../../test-support/shared-fixtures.ts'
import { readFileSync } from 'node:fs'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { compactionsForgot, type Forgot } from './compaction-forgot.ts'
import { fileNameOf, FactText } from './fact-text.ts'

const checksum = await loadContentChecksum()

type Mention = 'path' | 'name' | 'shouted' | 'none'
const mentionArb = fc.constantFrom<Mention>('path', 'name', 'shouted', 'none')

const scenarioArb = fc.record({
  files: fc.array(fc.record({ key: fc.constantFrom('file_path', 'path'), mention: mentionArb }), { minLength: 1, maxLength: 4 }),
  answered: fc.nat({ max: 4 }),
  todos: fc.option(
    fc.array(fc.record({ status: fc.constantFrom('pending', 'in_progress', 'completed'), mention: mentionArb }), {
      maxLength: 4,
    }),
  ),
  goal: fc.option(
    fc.record({
      operation: fc.constantFrom('create', 'edit', 'pause', 'complete', 'clear'),
      mention: fc.boolean(),
    }),
  ),
  request: fc.boolean(),
  note: fc.boolean(),
  /** How many surface nodes after the first the summary also takes (the rest stay). */
  take: fc.nat({ max: 12 }),
})

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never

const say = (fact: string, mention: Mention): string =>
  mention === 'path'
    ? fact
    : mention === 'name'
      ? fileNameOf(fact)
      : mention === 'shouted'
        ? fact.toUpperCase().replace(/ /g, '  \n ')
        : ''

function build(s: Scenario): { events: TestEvent[]; expected: Forgot; summarySeq: number; shadowed: number[] } {
  const events: TestEvent[] = []
  const add = (type: string, data: unknown, extra: Record<string, unknown> = {}) => {
    events.push({ type, seq: events.length, time: 1_000 + events.length, data, ...extra })
    return events.length - 1
  }
  const surface: number[] = []
  add('turn/start', { turn: 1 })
  add('step/start', { turn: 1, step: 1 })
  const requestLine = 'Please fix the importer crash'
  surface.push(
    add(
      'user/message',
      {
        id: 'u1',
        role: 'user',
        content: [{ type: 'text', text: `${requestLine}\nIt fails on big files.` }],
        source: { kind: 'user' },
      },
      { surfaceOp: 'append' },
    ),
  )
  const paths = s.files.map((_, i) => `src/dir${i + 1}/name${i + 1}.ts`)
  const calls = s.files.map((f, i) => ({
    type: 'tool-call',
    id: `call-${i + 1}`,
    name: i % 2 === 0 ? 'read' : 'edit',
    arguments: JSON.stringify({ [f.key]: paths[i], limit: 10 }),
  }))
  const assistant = add(
    'assistant/message',
    { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content: calls, source: { kind: 'model' } } },
    { surfaceOp: 'append', sourceEventSeqs: [] },
  )
  surface.push(assistant)
  const answered = Math.min(s.answered, calls.length)
  for (const call of calls.slice(0, answered)) {
    const callSeq = add('tool/call', { turn: 1, step: 1, callId: call.id, name: call.name, arguments: call.arguments })
    const message = {
      id: `t-${call.id}`,
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text: 'ok' }] }],
      source: { kind: 'tool', callId: call.id },
    }
    surface.push(add('tool/result', { turn: 1, step: 1, message }, { surfaceOp: 'append', sourceEventSeqs: [callSeq] }))
  }
  const todos = (s.todos ?? []).map((t, i) => ({ content: `Step number ${i + 1} of the plan`, status: t.status }))
  let todoSeq = -1
  if (s.todos !== null) {
    add('todo/write', { todos: [{ content: 'an older list', status: 'pending' }] })
    todoSeq = add('todo/write', { todos })
  }
  const objective = 'Make the importer stream large files'
  let goalSeq = -1
  if (s.goal !== null) {
    add('goal/change', {
      kind: 'goal/change',
      version: 1,
      operation: 'create',
      goal: { id: 'g', revision: 1, objective: 'an older goal', phase: 'active', maxGoalRounds: 5 },
    })
    const phase = { create: 'active', edit: 'active', pause: 'paused', complete: 'complete', clear: '' }[s.goal.operation]
    goalSeq = add(
      'goal/change',
      s.goal.operation === 'clear'
        ? { kind: 'goal/change', version: 1, operation: 'clear', cleared: { id: 'g', revision: 2 }, clearedAt: 9 }
        : { kind: 'goal/change', version: 1, operation: s.goal.operation, goal: { id: 'g', revision: 2, objective, phase } },
    )
  }
  if (s.note)
    surface.push(
      add(
        'user/message',
        { id: 'n1', role: 'user', content: [{ type: 'text', text: 'a note' }], source: { kind: 'plugin', plugin: 'x' } },
        { surfaceOp: 'append' },
      ),
    )
  const shadowed = surface.slice(0, 1 + Math.min(s.take, surface.length - 1))
  const kept = surface.slice(shadowed.length)
  const summaryText = [
    'Summary of the work so far.',
    ...s.files.map((f, i) => say(paths[i] as string, f.mention)),
    ...(s.todos ?? []).map((t, i) => say(todos[i]?.content as string, t.mention === 'name' ? 'path' : t.mention)),
    s.goal?.mention === true ? objective.toLowerCase() : '',
    s.request ? requestLine : '',
  ].join('\n')
  const start = add('compaction/start', { compactionId: 'c1', turn: 1 })
  const summary = add('compaction/summary', {
    compactionId: 'c1',
    summary: [{ type: 'text', text: summaryText }],
    shadowedRange: { start: shadowed[0], end: shadowed.at(-1) },
    shadowedSeqs: shadowed,
    shadowedTokenCount: 4321,
  })
  const summarySeq = add(
    'user/message',
    {
      id: 'cp',
      role: 'user',
      content: [{ type: 'text', text: summaryText }],
      source: { kind: 'plugin', plugin: 'compact', compactionId: 'c1' },
    },
    {
      surfaceOp: { op: 'replace', start: shadowed[0], end: shadowed.at(-1) },
      sourceEventSeqs: [start, summary, ...shadowed],
    },
  )
  add('compaction/end', { compactionId: 'c1', turn: 1 })
  // Expected from the choices: a fact kept on the surface (its message not summarised) is not forgotten.
  const assistantKept = kept.includes(assistant)
  const goalOpen = s.goal !== null && s.goal.operation !== 'clear' && s.goal.operation !== 'complete'
  const expected: Forgot = {
    files: assistantKept
      ? []
      : s.files.flatMap((f, i) => (f.mention === 'none' ? [{ path: paths[i] as string, seq: assistant }] : [])),
    todos: (s.todos ?? []).flatMap((t, i) =>
      t.status === 'completed' || t.mention !== 'none'
        ? []
        : [{ content: todos[i]?.content as string, status: t.status, seq: todoSeq }],
    ),
    goal:
      goalOpen && s.goal?.mention === false
        ? { objective, phase: s.goal.operation === 'pause' ? 'paused' : 'active', seq: goalSeq }
        : null,
    lastUserRequest: s.request ? null : { text: requestLine, seq: 2 },
    unansweredCalls: assistantKept ? [] : calls.slice(answered).map((c) => ({ id: c.id, name: c.name, seq: assistant })),
  }
  return { events, expected, summarySeq, shadowed }
}

function load(events: readonly TestEvent[]): LensLog {
  const log = new LensLog({ checksum })
  log.push(toJsonlBytes(events))
  log.finish()
  expect(log.strictLength).toBe(events.length)
  return log
}

describe('what a compaction forgot', () => {
  it('on generated logs: facts mentioned by path, by file name, in other case and spacing, not at all, or kept', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { events, expected, summarySeq, shadowed } = build(s)
        expect(compactionsForgot(load(events))).toStrictEqual([
          {
            seq: summarySeq,
            compactionId: 'c1',
            shadowedSeqs: shadowed,
            summaryTokens: expect.any(Number) as number,
            removedTokens: 4321,
            forgot: expected,
          },
        ])
      }),
      { numRuns: 400 },
    )
  })

  it.runIf(fixturesAvailable())(
    'on agent-instructions: its hand-made checkpoint forgets nothing the surface does not keep',
    () => {
      const log = new LensLog({ checksum })
      log.push(readFileSync(`${FIXTURE_DIR}acp--agent-instructions--session.jsonl`))
      log.finish()
      // The read call naming nested/task.txt (seq 15) and the request (seq 4) stay on the surface after seq 17.
      expect(compactionsForgot(log)).toStrictEqual([
        {
          seq: 17,
          compactionId: 'workspace-context-fixture',
          shadowedSeqs: [5],
          summaryTokens: 59,
          removedTokens: 227,
          forgot: { files: [], todos: [], goal: null, lastUserRequest: null, unansweredCalls: [] },
        },
      ])
    },
  )

  it('FactText: case- and whitespace-blind, paths by their file name', () => {
    const text = new FactText('Edited  SRC/CSV/Row.ts\nand the\tREADME')
    expect(text.mentions('src/csv/row.ts')).toBe(true)
    expect(text.mentions('and the readme')).toBe(true)
    expect(text.mentions('')).toBe(false)
    expect(text.mentionsPath('/elsewhere/README')).toBe(true)
    expect(text.mentionsPath('lib/parse.ts')).toBe(false)
    expect(fileNameOf('a/b/')).toBe('b')
    expect(fileNameOf('C:\\x\\y.txt')).toBe('y.txt')
  })
})
