/**
 * Each of the harness's 18 surface checks, triggered on purpose, by its exact
 * text (literal strings here, not the message catalogue, so a typo there fails),
 * plus the TypeErrors the harness throws on un-upgraded legacy data. Every case
 * is also checked against the harness's own fold.
 */

import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { SurfaceFold } from './surface-fold.ts'

type E = Record<string, unknown>
const user = (seq: number, extra: E = {}): E => ({
  type: 'user/message',
  seq,
  time: 0,
  data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
  surfaceOp: 'append',
  ...extra,
})
const tool = (seq: number, extra: E = {}, data: E = {}): E => ({
  type: 'tool/result',
  seq,
  time: 0,
  data: {
    turn: 1,
    step: 1,
    message: {
      id: 't1',
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'long output' }], isError: false }],
      source: { kind: 'tool', callId: 'c1' },
    },
    ...data,
  },
  surfaceOp: 'append',
  ...extra,
})
const plain = (seq: number, type = 'turn/start', extra: E = {}): E => ({ type, seq, time: 0, data: { turn: 1 }, ...extra })
const replace = (start: number, end: number) => ({ op: 'replace', start, end })

function firstError(events: unknown[]): { index: number; message: string } | undefined {
  const fold = new SurfaceFold((i) => events[i])
  for (const e of events) fold.push(e)
  const ours = fold.firstViolation
  const harness = harnessVerdict(events).error
  expect(ours === undefined ? null : { index: ours.index, message: ours.message }).toStrictEqual(harness)
  return ours && { index: ours.index, message: ours.message }
}

const pruned = (seq: number, start: number, data: E = {}, extra: E = {}) => {
  const t = tool(seq, { surfaceOp: replace(start, start), sourceEventSeqs: [start], ...extra }, data)
  const message = (t['data'] as { message: { content: E[] } }).message
  message.content = [{ ...message.content[0], content: [{ type: 'text', text: '[pruned]' }] }]
  return t
}

const cases: [string, unknown[], number, string][] = [
  ['1 seq not contiguous', [plain(0), plain(2)], 1, 'session event seq 2 is not contiguous; expected 1'],
  [
    '2 surfaceOp on a log-only event',
    [plain(0, 'turn/start', { surfaceOp: 'append' })],
    0,
    'session event "turn/start" is not surface-eligible and cannot carry surfaceOp',
  ],
  [
    '3 sources on a log-only event',
    [plain(0, 'step/end', { sourceEventSeqs: [0] })],
    0,
    'session event "step/end" is not surface-eligible and cannot carry sourceEventSeqs',
  ],
  [
    '4 surface event without surfaceOp',
    [user(0, { surfaceOp: undefined })],
    0,
    'session event "user/message" is surface-eligible and requires a surfaceOp marker',
  ],
  [
    '5 surfaceOp not append and not an object',
    [user(0, { surfaceOp: 'prepend' })],
    0,
    'session event "user/message" carries an invalid surfaceOp',
  ],
  ['5 surfaceOp array', [user(0, { surfaceOp: [] })], 0, 'session event "user/message" carries an invalid surfaceOp'],
  [
    '6 replace with an extra key',
    [user(0), user(1, { surfaceOp: { ...replace(0, 0), x: 1 }, sourceEventSeqs: [0] })],
    1,
    'session event "user/message" carries an invalid replace surfaceOp',
  ],
  [
    '6 replace with a negative start',
    [user(0), user(1, { surfaceOp: replace(-1, 0) })],
    1,
    'session event "user/message" carries an invalid replace surfaceOp',
  ],
  [
    '7 start not on the surface',
    [user(0), user(1, { surfaceOp: replace(5, 0), sourceEventSeqs: [0] })],
    1,
    'surface replace: start seq 5 not found in surface',
  ],
  [
    '7 start already shadowed',
    [
      user(0),
      user(1, { surfaceOp: replace(0, 0), sourceEventSeqs: [0] }),
      user(2, { surfaceOp: replace(0, 0), sourceEventSeqs: [0] }),
    ],
    2,
    'surface replace: start seq 0 not found in surface',
  ],
  [
    '8 end not on the surface',
    [user(0), user(1, { surfaceOp: replace(0, 7), sourceEventSeqs: [0] })],
    1,
    'surface replace: end seq 7 not found in surface',
  ],
  [
    '9 start after end',
    [user(0), user(1), user(2), user(3, { surfaceOp: replace(2, 1), sourceEventSeqs: [1, 2] })],
    3,
    'surface replace: start seq 2 (index 2) is after end seq 1 (index 1)',
  ],
  [
    '10 sources not an array',
    [user(0, { sourceEventSeqs: 3 })],
    0,
    'sourceEventSeqs on event at seq 0 must be an array when present',
  ],
  [
    '11 empty sources on a user message',
    [user(0, { sourceEventSeqs: [] })],
    0,
    'sourceEventSeqs must not be empty except on assistant/message',
  ],
  [
    '12 a non-integer source',
    [user(0), user(1, { sourceEventSeqs: [0, 0.5] })],
    1,
    'session event "user/message" sourceEventSeqs must densely contain non-negative safe integers',
  ],
  [
    '12 before 13 and 14',
    [user(0), user(1, { sourceEventSeqs: [5, 5, 'x'] })],
    1,
    'session event "user/message" sourceEventSeqs must densely contain non-negative safe integers',
  ],
  ['13 duplicate sources', [user(0), user(1, { sourceEventSeqs: [0, 0] })], 1, 'sourceEventSeqs must not contain duplicates'],
  [
    '14 a source not earlier (first such value)',
    [user(0), user(1, { sourceEventSeqs: [0, 3, 1] })],
    1,
    'sourceEventSeqs must reference earlier events: 3 >= current seq 1',
  ],
  [
    '15 a shadowed node missing from sources',
    [user(0), user(1), user(2), user(3, { surfaceOp: replace(0, 2), sourceEventSeqs: [1] })],
    3,
    'surface replace: sourceEventSeqs must include every shadowed surface node; missing 0, 2',
  ],
  [
    '15 absent sources count as empty',
    [user(0), user(1, { surfaceOp: replace(0, 0) })],
    1,
    'surface replace: sourceEventSeqs must include every shadowed surface node; missing 0',
  ],
  [
    '16 tool result rewriting two nodes',
    [tool(0), tool(1), tool(2, { surfaceOp: replace(0, 1), sourceEventSeqs: [0, 1] })],
    2,
    'tool/result surface replacement must rewrite exactly one current node',
  ],
  [
    '17 tool result rewriting a user message',
    [user(0), pruned(1, 0)],
    1,
    'tool/result surface replacement must target a current tool/result',
  ],
  [
    '18 tool result rewrite changing the step',
    [tool(0), pruned(1, 0, { step: 2 })],
    1,
    'tool/result surface replacement may change only content',
  ],
  [
    '18 tool result rewrite changing isError',
    [tool(0), pruned(1, 0, { error: { name: 'E', code: 'X' } })],
    1,
    'tool/result surface replacement may change only content',
  ],
  ['TypeError on a null event', [null], 0, "Cannot read properties of null (reading 'seq')"],
  [
    'TypeError on a legacy tool result rewrite',
    [tool(0), { ...pruned(1, 0), data: { turn: 1, step: 1, callId: 'c1', content: [], isError: false } }],
    1,
    "Cannot read properties of undefined (reading 'content')",
  ],
]

describe('the 18 surface checks, by their exact text', () => {
  it.each(cases)('%s', (_name, events, index, message) => {
    expect(firstError(events)).toStrictEqual({ index, message })
  })

  it('accepts a prune whose only change is the content (extra blocks ignored as the harness does)', () => {
    const ok = pruned(1, 0)
    ;((ok['data'] as { message: { content: E[] } }).message.content as E[]).push({ type: 'text', text: 'ignored' })
    expect(firstError([tool(0), ok])).toBeUndefined()
  })

  it('accepts nested replacement: a compaction that swallows an earlier summary', () => {
    const events = [
      user(0),
      user(1),
      user(2, { surfaceOp: replace(0, 1), sourceEventSeqs: [0, 1] }),
      user(3),
      user(4, { surfaceOp: replace(2, 3), sourceEventSeqs: [2, 3] }),
    ]
    expect(firstError(events)).toBeUndefined()
    const fold = new SurfaceFold((i) => events[i])
    for (const e of events) fold.push(e)
    expect(fold.timeline.currentSeqs()).toStrictEqual([4])
    expect(fold.timeline.replacements.map((r) => r.shadowedSeqs)).toStrictEqual([
      [0, 1],
      [2, 3],
    ])
  })
})

describe('the continued fold (debugger mode)', () => {
  it('skips the offending event and keeps folding', () => {
    const events = [
      user(0),
      user(1, { sourceEventSeqs: [] }),
      user(2),
      user(3, { surfaceOp: replace(2, 2), sourceEventSeqs: [2] }),
    ]
    const fold = new SurfaceFold((i) => events[i])
    for (const e of events) fold.push(e)
    expect(fold.strictCount).toBe(1)
    expect(fold.violations.map((v) => [v.index, v.skipped])).toStrictEqual([[1, true]])
    expect(fold.timeline.currentSeqs()).toStrictEqual([0, 3])
    expect(Array.from(fold.timeline.nodesAfter(0), (n) => fold.timeline.seqOf(n))).toStrictEqual([0])
  })

  it('re-synchronises on a forward seq gap instead of rejecting every later event', () => {
    const events = [user(0), user(5), user(6)]
    const fold = new SurfaceFold((i) => events[i])
    for (const e of events) fold.push(e)
    expect(fold.violations).toStrictEqual([
      { index: 1, seq: 5, message: 'session event seq 5 is not contiguous; expected 1', skipped: false },
    ])
    expect(fold.timeline.currentSeqs()).toStrictEqual([0, 5, 6])
    expect(fold.strictCount).toBe(1)
  })

  it('skips a repeated seq', () => {
    const events = [user(0), user(1), user(1), user(2)]
    const fold = new SurfaceFold((i) => events[i])
    for (const e of events) fold.push(e)
    expect(fold.violations.map((v) => v.message)).toStrictEqual(['session event seq 1 is not contiguous; expected 2'])
    expect(fold.timeline.currentSeqs()).toStrictEqual([0, 1, 2])
  })
})
