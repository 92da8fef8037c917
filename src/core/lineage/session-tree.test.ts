/**
 * The sessions tree on the harness's real parent logs (../shared/fixtures/dsh) with children built the way the
 * harness builds them (format reference 5): a fork child's seed is the parent's prefix copied verbatim (here: our
 * `logPrefix` of the real parent, itself checked against the harness's fold), then `session/end-seed`, then the
 * child's own `subagent/descriptor`; a continuable child's seed is its descriptor. The fixture folder holds the
 * parents only (the harness's `session.1.jsonl` children were not copied), so children are built here.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FIXTURE_DIR, fixturesAvailable } from '../../test-support/shared-fixtures.ts'
import { logPrefix } from '../export/log-prefix.ts'
import { LensLog } from '../log/lens-log.ts'
import { LineageScanner } from './lineage-scan.ts'
import { checkSeedPrefix } from './seed-prefix.ts'
import type { LineageFacts, ToolCallFact } from './lineage-facts.ts'
import { buildSessionTree, type LineageInput } from './session-tree.ts'

const available = fixturesAvailable()
const enc = new TextEncoder()

function fixture(name: string): string {
  return readFileSync(`${FIXTURE_DIR}${name}--session.jsonl`, 'utf8')
}

function scan(key: string, text: string, keep = 0): LineageInput & { scanner: LineageScanner } {
  const scanner = new LineageScanner(keep)
  scanner.push(enc.encode(text))
  scanner.finish()
  return { key, header: scanner.header, eventCount: scanner.eventCount, facts: scanner.facts(), scanner }
}

interface ChildSpec {
  id: string
  parentId: string
  createdAt: number
  origin?: 'subagent'
  depth?: number
  seed?: { parentText: string; length: number }
  label?: string
}

/** A child log as the harness writes one: header, the seed (copied parent prefix or a descriptor), end-seed, a turn. */
function childLog(spec: ChildSpec): string {
  const header = {
    type: 'session',
    version: 0,
    id: spec.id,
    createdAt: spec.createdAt,
    cwd: '{{cwd}}',
    parentSession: spec.parentId,
    ...(spec.seed !== undefined ? { seedLength: spec.seed.length } : {}),
    ...(spec.origin !== undefined ? { origin: spec.origin } : {}),
    delegationDepth: spec.depth ?? 1,
  }
  const lines = [JSON.stringify(header)]
  let seq = 0
  if (spec.seed !== undefined) {
    const parent = new LensLog()
    parent.push(enc.encode(spec.seed.parentText))
    parent.finish()
    lines.push(
      ...logPrefix(parent, spec.seed.length - 1)
        .parts.slice(1)
        .map((l) => l.trimEnd()),
    )
    seq = spec.seed.length
  } else if (spec.label !== undefined) {
    lines.push(
      JSON.stringify({
        type: 'subagent/descriptor',
        seq: seq++,
        time: 1,
        data: { version: 2, mode: 'continuable', label: spec.label },
      }),
    )
  }
  lines.push(JSON.stringify({ type: 'session/end-seed', seq: seq++, time: 2, data: {} }))
  if (spec.seed !== undefined && spec.label !== undefined)
    lines.push(
      JSON.stringify({
        type: 'subagent/descriptor',
        seq: seq++,
        time: 3,
        data: { version: 2, mode: 'one-shot', provider: 'fork', label: spec.label },
      }),
    )
  lines.push(JSON.stringify({ type: 'turn/start', seq: seq++, time: 4, data: { turn: 1 } }))
  lines.push(JSON.stringify({ type: 'turn/end', seq: seq++, time: 5, data: { turn: 1, reason: { kind: 'completed' } } }))
  return lines.join('\n') + '\n'
}

describe.runIf(available)('sessions tree on real parents', () => {
  it('fork child (subagent-fork-in-process): one-shot, linked by descriptor label (heuristic), seed of 42 verified', () => {
    const parentText = fixture('acp--subagent-fork-in-process')
    const parent = scan('parent.jsonl', parentText, 42)
    const childText = childLog({
      id: 'ada8966c-9fa3-441b-8721-37ff1e795e6a',
      parentId: '96cf59c9-b347-48b9-b234-a5200913ad05',
      createdAt: 1783352137161,
      origin: 'subagent',
      seed: { parentText, length: 42 },
      label: 'Recall project codeword',
    })
    const child = scan('subagents/ada/session.jsonl', childText, 42)
    const tree = buildSessionTree([child, parent])
    expect(tree.roots).toStrictEqual(['parent.jsonl'])
    expect(tree.order).toStrictEqual(['parent.jsonl', 'subagents/ada/session.jsonl'])
    const node = tree.nodes.get('subagents/ada/session.jsonl')
    expect(node).toMatchObject({ kind: 'subagent', depth: 1, delegationDepth: 1, seedLength: 42, parentKey: 'parent.jsonl' })
    expect(node?.start).toStrictEqual({
      parentSeq: 157,
      via: 'descriptor-label',
      heuristic: true,
      callId: 'call_00_sAtKUseRzHRBvL4CF7XF1334',
    })
    expect(tree.nodes.get('parent.jsonl')?.children).toStrictEqual(['subagents/ada/session.jsonl'])
    const check = checkSeedPrefix(
      42,
      (i) => parent.scanner.kept[i],
      (i) => child.scanner.kept[i],
    )
    expect(check).toStrictEqual({ seedLength: 42, matching: 42, divergesAt: null, reason: null })
    // The seed includes the reasoning row at seq 10..32: the child's copy is a row too, and its members equal.
    expect(child.scanner.kept[20]).toStrictEqual(parent.scanner.kept[20])
  })

  it('a seed that differs from the parent is reported at the first differing event', () => {
    const parentText = fixture('acp--subagent-fork-in-process')
    const parent = scan('p', parentText, 42)
    const tampered = childLog({ id: 'c', parentId: 'x', createdAt: 1, seed: { parentText, length: 42 } }).replace(
      '"title":"Remember this fact for later:"',
      '"title":"Something else"',
    )
    const child = scan('c', tampered, 42)
    const check = checkSeedPrefix(
      42,
      (i) => parent.scanner.kept[i],
      (i) => child.scanner.kept[i],
    )
    expect(check.divergesAt).toBe(6)
    expect(check.matching).toBe(6)
    expect(check.reason).toBe("event 6 differs from the parent's event 6")
    const short = scan('s', childLog({ id: 'c', parentId: 'x', createdAt: 1, seed: { parentText, length: 10 } }), 42)
    expect(
      checkSeedPrefix(
        42,
        (i) => parent.scanner.kept[i],
        (i) => short.scanner.kept[i],
      ),
    ).toMatchObject({ divergesAt: 10 })
  })

  it('continuable child (subagent-continuable): started by the `started subagent <id>` tool result, reported back at seq 61', () => {
    const parent = scan('p', fixture('acp--subagent-continuable'))
    const child = scan(
      'c',
      childLog({
        id: '33333333-3333-4333-8333-333333333333',
        parentId: '11111111-1111-4111-8111-111111111111',
        createdAt: 1789000000001,
        origin: 'subagent',
        label: 'Reply with CHILD_OK',
      }),
    )
    const node = buildSessionTree([parent, child]).nodes.get('c')
    expect(node?.start).toStrictEqual({ parentSeq: 16, via: 'started-subagent', heuristic: false, callId: 'call_bg_start' })
    expect(node?.reportSeqs).toStrictEqual([61])
    expect(node?.label).toBe('Reply with CHILD_OK')
  })

  it('workflow children (workflow-run, advanced-toolchain): tool-workflow/agent-start childId, exact; a direct child by label', () => {
    const wf = scan('p', fixture('acp--workflow-run'))
    const wfChild = scan(
      'c',
      childLog({
        id: '583a4db2-3350-436c-b4a5-5615fd159052',
        parentId: '3fd7d599-56b1-493a-930d-f1fc5e1556e8',
        createdAt: 1783600631900,
        origin: 'subagent',
      }),
    )
    expect(buildSessionTree([wf, wfChild]).nodes.get('c')?.start).toStrictEqual({
      parentSeq: 167,
      via: 'agent-start',
      heuristic: false,
      callId: null,
    })

    const adv = scan('p', fixture('acp--advanced-toolchain'))
    const viaWorkflow = scan(
      'w',
      childLog({
        id: '33333333-3333-4333-8333-333333333333',
        parentId: '11111111-1111-4111-8111-111111111111',
        createdAt: 1783950000100,
        origin: 'subagent',
        label: 'workflow-child',
      }),
    )
    const direct = scan(
      'd',
      childLog({
        id: '22222222-2222-4222-8222-222222222222',
        parentId: '11111111-1111-4111-8111-111111111111',
        createdAt: 1783950000050,
        origin: 'subagent',
        label: 'Check direct child',
      }),
    )
    const tree = buildSessionTree([adv, viaWorkflow, direct])
    expect(tree.nodes.get('w')?.start).toMatchObject({ parentSeq: 51, via: 'agent-start', heuristic: false })
    expect(tree.nodes.get('d')?.start).toMatchObject({
      parentSeq: 38,
      via: 'descriptor-label',
      heuristic: true,
      callId: 'advanced-direct-child',
    })
    expect(tree.nodes.get('p')?.children).toStrictEqual(['d', 'w'])
  })

  it('parallel children with the same label get different tool calls (subagent-parallel)', () => {
    const parent = scan('p', fixture('acp--subagent-parallel'))
    const kids = [1, 2].map((n) =>
      scan(
        `c${n}`,
        childLog({
          id: `child-${n}`,
          parentId: 'aaaaaaaa-0000-4000-8000-000000000001',
          createdAt: 1783352126000 + n,
          origin: 'subagent',
          label: 'Say the word ALPHA',
        }),
      ),
    )
    const tree = buildSessionTree([parent, ...kids])
    const calls = ['c1', 'c2'].map((k) => tree.nodes.get(k)?.start?.callId)
    expect(new Set(calls)).toStrictEqual(new Set(['call_parallel_alpha_1', 'call_parallel_alpha_2']))
  })
})

describe('sessions tree from headers alone', () => {
  const header = (id: string, extra: Record<string, unknown> = {}): LineageInput => ({
    key: `${id}.jsonl`,
    header: { type: 'session', version: 0, id, createdAt: 10, delegationDepth: 0, ...extra },
    eventCount: 3,
    facts: null,
  })

  it('a fork (parentSession without origin), a grandchild, a missing parent, a depth that does not add up', () => {
    const tree = buildSessionTree([
      header('root'),
      header('fork', { parentSession: 'root', seedLength: 5 }),
      header('sub', { parentSession: 'root', origin: 'subagent', delegationDepth: 1 }),
      header('grand', { parentSession: 'sub', origin: 'subagent', delegationDepth: 3 }),
      header('orphan', { parentSession: 'gone', origin: 'subagent', delegationDepth: 1 }),
    ])
    expect(tree.roots).toStrictEqual(['root.jsonl', 'orphan.jsonl'])
    expect(tree.order).toStrictEqual(['root.jsonl', 'fork.jsonl', 'sub.jsonl', 'grand.jsonl', 'orphan.jsonl'])
    expect(tree.nodes.get('fork.jsonl')).toMatchObject({ kind: 'fork', depth: 1, seedLength: 5, start: null })
    expect(tree.nodes.get('grand.jsonl')).toMatchObject({ kind: 'subagent', depth: 2 })
    expect(tree.nodes.get('grand.jsonl')?.notes.join()).toMatch(/delegationDepth 3, but its parent's is 1/)
    expect(tree.nodes.get('orphan.jsonl')).toMatchObject({ kind: 'subagent', parentKey: null, depth: 0 })
    expect(tree.nodes.get('orphan.jsonl')?.notes.join()).toMatch(/parent session gone is not among the loaded logs/)
  })

  it('a parentSession cycle and a duplicate id never loop or crash', () => {
    const tree = buildSessionTree([
      header('a', { parentSession: 'b' }),
      header('b', { parentSession: 'a' }),
      { ...header('a'), key: 'a2' },
    ])
    expect(tree.order.length).toBe(3)
    expect(tree.nodes.get('a2')?.notes.join()).toMatch(/same session id/)
  })

  it('a log without a header is a root with no id', () => {
    const tree = buildSessionTree([{ key: 'x', header: null, eventCount: null, facts: null }])
    expect(tree.nodes.get('x')).toMatchObject({ id: null, kind: 'root', depth: 0 })
  })
})

describe('the descriptor-label heuristic (one-shot children), on facts written out', () => {
  const noFacts: LineageFacts = {
    agentStarts: [],
    startedSubagents: [],
    reports: [],
    coordinatorMessages: [],
    descriptor: null,
    toolCalls: [],
    endSeeds: [],
  }
  const call = (seq: number, time: number | null, description: string | null): ToolCallFact => ({
    seq,
    time,
    callId: `call-${seq}`,
    name: 'agent',
    description,
  })
  const parent = (toolCalls: ToolCallFact[], extra: Partial<LineageFacts> = {}): LineageInput => ({
    key: 'parent',
    header: { type: 'session', version: 0, id: 'p', createdAt: 0, delegationDepth: 0 },
    eventCount: 100,
    facts: { ...noFacts, toolCalls, ...extra },
  })
  const child = (id: string, createdAt: number, label: string): LineageInput => ({
    key: id,
    header: { type: 'session', version: 0, id, createdAt, parentSession: 'p', origin: 'subagent', delegationDepth: 1 },
    eventCount: 4,
    facts: { ...noFacts, descriptor: { seq: 0, label, mode: 'one-shot', provider: null } },
  })
  const startOf = (inputs: LineageInput[], key: string) => buildSessionTree(inputs).nodes.get(key)?.start ?? null

  it('the latest call with the label at or before the child was created, not an earlier one', () => {
    const calls = [call(5, 1_000, 'Fix it'), call(9, 2_000, 'Fix it'), call(14, 3_000, 'Fix it')]
    expect(startOf([parent(calls), child('c', 2_500, 'Fix it')], 'c')).toStrictEqual({
      parentSeq: 9,
      via: 'descriptor-label',
      heuristic: true,
      callId: 'call-9',
    })
  })

  it('a call made in the very millisecond the child was created counts', () => {
    const calls = [call(5, 1_000, 'Fix it'), call(9, 2_000, 'Fix it')]
    expect(startOf([parent(calls), child('c', 2_000, 'Fix it')], 'c')?.parentSeq).toBe(9)
  })

  it('calls with another label, or used by an earlier child, are passed over; a call with no time is a candidate', () => {
    const calls = [call(3, null, 'Fix it'), call(5, 1_000, 'Fix it'), call(7, 1_500, 'Other'), call(9, 2_000, 'Fix it')]
    const tree = buildSessionTree([
      parent(calls),
      child('b', 2_200, 'Fix it'),
      child('a', 2_100, 'Fix it'),
      child('d', 2_300, 'Fix it'),
    ])
    // Children in createdAt order: a (2,100) takes 9, b (2,200) the latest left (5), d (2,300) the call with no time.
    expect(['a', 'b', 'd'].map((k) => tree.nodes.get(k)?.start?.parentSeq)).toStrictEqual([9, 5, 3])
    expect(tree.nodes.get('parent')?.children).toStrictEqual(['a', 'b', 'd'])
  })

  it('with no call at or before its creation, the first unused call with the label; with none, no start', () => {
    const calls = [call(5, 5_000, 'Fix it'), call(9, 6_000, 'Fix it')]
    expect(startOf([parent(calls), child('c', 1_000, 'Fix it')], 'c')?.parentSeq).toBe(5)
    expect(startOf([parent(calls), child('c', 1_000, 'Nothing like it')], 'c')).toBeNull()
  })

  it('a start is "sought" only when the parent\'s facts were read: headers alone say nothing about it', () => {
    const calls = [call(5, 1_000, 'Fix it')]
    const sought = buildSessionTree([parent(calls), child('c', 2_000, 'Nothing like it')]).nodes.get('c')
    expect([sought?.start, sought?.startSought]).toStrictEqual([null, true])
    const headersOnly = buildSessionTree([{ ...parent(calls), facts: null }, child('c', 2_000, 'Fix it')]).nodes.get('c')
    expect([headersOnly?.start, headersOnly?.startSought]).toStrictEqual([null, false])
  })

  it('an exact start (agent-start, started subagent) wins over a label match', () => {
    const calls = [call(5, 1_000, 'Fix it')]
    const exact = { agentStarts: [{ seq: 11, childId: 'c', label: 'Fix it' }] }
    expect(startOf([parent(calls, exact), child('c', 2_000, 'Fix it')], 'c')).toStrictEqual({
      parentSeq: 11,
      via: 'agent-start',
      heuristic: false,
      callId: null,
    })
    const started = { startedSubagents: [{ seq: 12, callId: 'call-x', childId: 'c' }] }
    expect(startOf([parent(calls, started), child('c', 2_000, 'Fix it')], 'c')).toStrictEqual({
      parentSeq: 12,
      via: 'started-subagent',
      heuristic: false,
      callId: 'call-x',
    })
  })
})
