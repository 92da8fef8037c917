/**
 * The comparison's rules on small runs written by hand (RunWriter: each run its own ids and clock): what is ignored
 * and what is not, pairing and unpaired steps, a run that stopped mid-step, forks (one block, siblings, a seed that
 * does not hold), the request diff read as the Request view reads one, totals and deltas, the cost seam, and a pair
 * asked for in full.
 */

import { describe, expect, it } from 'vitest'
import { LIST_FILES_TOTALS, listFilesRun, loadTwins, RunWriter } from '../../test-support/compare-kit.ts'
import { stepRequest } from '../request/step-request.ts'
import { compareSessions, RunComparison } from './compare-sessions.ts'

/** The property's session shape (compare-sessions.property.test.ts), fixed. */
const TWIN_SESSION = {
  headerChangeEveryTurns: 2,
  maxTokensEveryTurns: 3,
  retryEverySteps: 4,
  parallelTools: true,
  stepsPerTurn: [1, 4] as [number, number],
  reasoningTokens: 6,
  textTokens: 10,
  pruneMinBytes: 200,
  toolResultMedianBytes: 400,
  toolResultMaxBytes: 3_000,
  hugeToolResultEvery: 0,
  pack: false,
}

const basic = listFilesRun

describe('what a comparison ignores', () => {
  it('finds a run equal to a second run that differs only in its ids and its clock', () => {
    const a = basic('one')
    const b = basic('two', { time: 1_800_000_000_000 })
    expect(a.text()).not.toBe(b.text())
    const c = compareSessions(a.log(), b.log())
    expect(c.firstDivergence).toBeNull()
    expect(c.pairs.map((p) => [p.same, p.kinds])).toStrictEqual([
      [true, []],
      [true, []],
    ])
  })

  it('ignores the web client request id a host prompt carries, not the kind of its source', () => {
    const run = (tag: string, source: Record<string, unknown>) => new RunWriter(tag).exchange('hi', 'hello', { source }).log()
    expect(
      compareSessions(run('a', { kind: 'user', rpcId: 'r1' }), run('b', { kind: 'user', rpcId: 'r7' })).firstDivergence,
    ).toBeNull()
    const other = compareSessions(run('a', { kind: 'user' }), run('b', { kind: 'goal' })).firstDivergence
    expect(other?.kind).toBe('user-message')
  })

  it('ignores a call id, never which call a result answers', () => {
    const run = (tag: string, swap: boolean) => {
      const w = new RunWriter(tag)
      w.turn().step()
      w.user('two commands')
      w.header()
      const { callIds } = w.answer('Both.', [
        { name: 'bash', args: '{"command":"ls"}' },
        { name: 'bash', args: '{"command":"pwd"}' },
      ])
      const [ls, pwd] = callIds as [string, string]
      // Each result names its call by id; swapping them makes `ls` answer `/w` and `pwd` answer `a.txt`.
      w.result(swap ? pwd : ls, 'a.txt')
      w.result(swap ? ls : pwd, '/w')
      w.endStep().step()
      w.answer('Done.')
      w.endStep().endTurn()
      return w.log()
    }
    expect(compareSessions(run('a', false), run('b', false)).firstDivergence).toBeNull()
    const swapped = compareSessions(run('a', false), run('b', true))
    expect(swapped.firstDivergence).toStrictEqual({
      kind: 'tool-result',
      a: { seq: 9, turn: 1, step: 1 },
      b: { seq: 9, turn: 1, step: 1 },
      message: 'the same tool call came back different: the world differed (A seq 9, B seq 9)',
    })
  })
})

describe('where two runs part, and why', () => {
  it('a different tool result: at the step that made the call, in its outcome; the next request carries it', () => {
    const c = compareSessions(basic('a').log(), basic('b', { result: 'a.txt' }).log())
    expect(c.firstDivergence).toMatchObject({ kind: 'tool-result', a: { seq: 8, turn: 1, step: 1 }, b: { seq: 8 } })
    expect(c.pairs.map((p) => p.kinds)).toStrictEqual([['tool-result'], ['tool-result']])
    const out = c.pairs[0]?.requestDiff?.output
    expect(out).toMatchObject({ a: [6, 8], b: [6, 8], firstDifference: 1 })
    expect(out?.firstMessage).toMatchObject({ index: 1, aSeq: 8, bSeq: 8, removedLines: 2, addedLines: 1 })
    expect(c.pairs[1]?.requestDiff).toMatchObject({ firstDifference: 2, replaced: [{ a: [8], b: [8] }] })
  })

  it('the same request, another answer: model-output at the answer', () => {
    const c = compareSessions(basic('a').log(), basic('b', { final: 'Two files: a.txt, b.txt.' }).log())
    expect(c.firstDivergence).toStrictEqual({
      kind: 'model-output',
      a: { seq: 12, turn: 1, step: 2 },
      b: { seq: 12, turn: 1, step: 2 },
      message: 'the same request got a different answer (A seq 12, B seq 12)',
    })
  })

  it('the user said something else: the first request, at the prompt', () => {
    const c = compareSessions(basic('a').log(), basic('b', { prompt: 'list the hidden files' }).log())
    expect(c.firstDivergence).toMatchObject({ kind: 'user-message', a: { seq: 2, turn: 1, step: 1 }, b: { seq: 2 } })
    expect(c.pairs[0]?.requestDiff).toMatchObject({
      firstDifference: 0,
      appended: [],
      removed: [],
      replaced: [{ a: [2], b: [2] }],
      headerChanged: [],
      firstMessage: { index: 0, aSeq: 2, bSeq: 2, removedLines: 1, addedLines: 1, clipped: false },
      output: null,
    })
  })

  it('a message only one request holds: appended (B) or removed (A), the other side at its request point', () => {
    const run = (tag: string, extra: boolean) =>
      new RunWriter(tag).exchange(['hi', ...(extra ? ['and also this'] : [])], 'hello').log()
    const c = compareSessions(run('a', false), run('b', true))
    expect(c.firstDivergence).toStrictEqual({
      kind: 'user-message',
      // A has no message there: it stands at its request point (its request/context).
      a: { seq: 4, turn: 1, step: 1 },
      b: { seq: 3, turn: 1, step: 1 },
      message: 'only B (seq 3) was sent this user message',
    })
    expect(c.pairs[0]?.requestDiff).toMatchObject({
      firstDifference: 1,
      appended: [3],
      removed: [],
      replaced: [],
      firstMessage: null,
    })
    expect(compareSessions(run('b', true), run('a', false)).pairs[0]?.requestDiff).toMatchObject({ appended: [], removed: [3] })
  })

  it('the header: another system prompt is a header divergence at the header in force, whatever the messages', () => {
    const run = (tag: string, system: string) =>
      new RunWriter(tag).exchange('hi', 'hello').exchange('again', 'hello again', { system }).log()
    const c = compareSessions(run('a', 'You are dsh.'), run('b', 'You are dsh. Be brief.'))
    expect(c.firstDivergence).toStrictEqual({
      kind: 'header',
      a: { seq: 12, turn: 2, step: 1 },
      b: { seq: 12, turn: 2, step: 1 },
      message: 'the request header differs in system (A seq 12, B seq 12)',
    })
    // The provider's prefix cache stops at the first token: the Request view's rule.
    expect(c.pairs[1]?.requestDiff).toMatchObject({ firstDifference: 0, headerChanged: ['system'], firstMessage: null })
  })

  it('an instruction the harness injects (the runtime context) counts as the header', () => {
    const run = (tag: string, policy: string) => {
      const w = new RunWriter(tag)
      w.turn().step()
      w.user('hi')
      w.user(`Current runtime context. Approval policy: ${policy}.`, {
        kind: 'plugin',
        plugin: '@deepseek-ai/dsh-system-prompt',
        form: 'snapshot',
      })
      w.header()
      w.answer('hello')
      w.endStep().endTurn()
      return w.log()
    }
    const c = compareSessions(run('a', 'ask'), run('b', 'never'))
    expect(c.firstDivergence?.kind).toBe('header')
    expect(c.firstDivergence?.message).toBe('the instructions the harness sends differ (A seq 3, B seq 3)')
  })

  it('a prune in one run only: surface-op, at the pruned result and the original the other still sends', () => {
    const run = (tag: string, prune: boolean) =>
      basic(tag)
        .exchange('and now?', 'Nothing else.', { before: (w) => (prune ? w.prune(8, '[pruned]') : undefined) })
        .log()
    const c = compareSessions(run('a', true), run('b', false))
    expect(c.firstDivergence).toStrictEqual({
      kind: 'surface-op',
      a: { seq: 19, turn: 2, step: 1 },
      b: { seq: 8, turn: 2, step: 1 },
      message: 'A compacted or pruned where B did not (A seq 19 stands where B still sends seq 8)',
    })
    expect(c.pairs[2]?.requestDiff).toMatchObject({ firstDifference: 2, replaced: [{ a: [19], b: [8] }] })
    expect(c.totals.a.prunes).toBe(1)
    expect(c.totals.b.prunes).toBe(0)
  })

  it('a compaction in one run only, whose range starts with an empty answer: B still sends from its first message', () => {
    // A max-tokens stop with no content is on the surface but never sent (deriveEventMessage): the other run's first
    // node still sent is the next one. Found by the twin-runs property (FC_SEED=1448598256), where the generator
    // expected the range's first seq.
    const session = { ...TWIN_SESSION, seed: 1, targetEvents: 807, compactionEveryTurns: 1, pruneEveryTurns: 1 }
    const twins = loadTwins({ session, twinSeed: 1, divergence: { kind: 'surface-op', site: 1780317051 } })
    const first = compareSessions(twins.logA, twins.logB).firstDivergence
    expect(twins.expected).toStrictEqual({
      kind: 'surface-op',
      a: { seq: 464, turn: 5, step: 1 },
      b: { seq: 288, turn: 5, step: 1 },
    })
    expect(first?.message).toBe('A compacted or pruned where B did not (A seq 464 stands where B still sends seq 288)')
    expect(first === null ? null : { kind: first.kind, a: first.a, b: first.b }).toStrictEqual(twins.expected)
  })

  it('lists unpaired steps and turns in place, and a run that stopped mid-step parts there as length', () => {
    const longer = basic('a')
    longer.turn().step()
    longer.user('more')
    longer.wait(300).answer('More.')
    longer.endStep().endTurn()
    const c = compareSessions(longer.log(), basic('b').log())
    expect(c.pairs.map((p) => [p.a?.turn ?? null, p.b?.turn ?? null, p.same, p.kinds])).toStrictEqual([
      [1, 1, true, []],
      [1, 1, true, []],
      [2, null, false, ['length']],
    ])
    expect(c.firstDivergence).toStrictEqual({
      kind: 'length',
      a: { seq: 16, turn: 2, step: 1 },
      b: { seq: 14, turn: 1, step: 2 },
      message: 'B stopped (its last event is seq 14) where A goes on at turn 2 step 1 (seq 16)',
    })
    // The step only A has counts as zero on B's side.
    expect(c.pairs[2]?.delta).toMatchObject({ inputTokens: -100, outputTokens: -10 })

    // B crashed after its request went out: the pair's requests are equal and B has no answer.
    const crashed = new RunWriter('c')
    crashed.turn().step()
    crashed.user('list the files')
    crashed.header()
    const d = compareSessions(basic('a').log(), crashed.log())
    expect(d.pairs.map((p) => p.kinds)).toStrictEqual([['length'], ['length']])
    expect(d.firstDivergence).toMatchObject({ kind: 'length', a: { seq: 6, turn: 1, step: 1 }, b: { seq: 4, turn: 1, step: 1 } })
  })
})

describe('forks', () => {
  const parent = (): RunWriter => basic('parent').exchange('next', 'Next.')

  it('compares after the seed, which is one block: no pair inside it, the divergence the first event after it', () => {
    const p = parent()
    const seedLength = 15 // through turn 1's turn/end
    const child = new RunWriter('child', { header: { parentSession: 'session-parent', seedLength } }).seed(p, seedLength)
    child.exchange('another way', 'Another way.')
    const c = compareSessions(p.log(), child.log())
    expect(c.fork).toStrictEqual({ parent: 'session-parent', seedLength })
    expect(c.pairs.map((p) => [p.a?.turn, p.b?.turn])).toStrictEqual([[2, 2]])
    // The child's `session/end-seed` (seq 15) shifts its own events by one.
    expect(c.firstDivergence).toMatchObject({
      kind: 'user-message',
      a: { seq: 17, turn: 2, step: 1 },
      b: { seq: 18, turn: 2, step: 1 },
    })
    expect(child.log().event(seedLength)?.type).toBe('session/end-seed')
    // Either order: the parent may be B.
    expect(compareSessions(child.log(), p.log()).fork).toStrictEqual({ parent: 'session-parent', seedLength })
  })

  it('two forks of one parent share the shorter seed', () => {
    const p = parent()
    const one = new RunWriter('one', { header: { parentSession: 'session-parent', seedLength: 15 } }).seed(p, 15)
    const two = new RunWriter('two', { header: { parentSession: 'session-parent', seedLength: 15 } }).seed(p, 15)
    for (const w of [one, two]) w.exchange('same', 'Same.')
    const c = compareSessions(one.log(), two.log())
    expect(c.fork).toStrictEqual({ parent: 'session-parent', seedLength: 15 })
    expect(c.firstDivergence).toBeNull()
  })

  it('says when a claimed seed does not hold, and compares from the first step', () => {
    const p = parent()
    const other = basic('parent', { result: 'c.txt' })
    const child = new RunWriter('child', { header: { parentSession: 'session-parent', seedLength: 15 } }).seed(other, 15)
    const c = new RunComparison(p.log(), child.log(), { details: true })
    const result = c.result()
    expect(result.fork).toBeNull()
    expect(c.fork.mismatch).toBe(
      "B is a fork of A with a 15-event seed, but event 8 differs from the parent's event 8: compared from the first step",
    )
    expect(result.firstDivergence?.kind).toBe('tool-result')
    expect(result.firstDivergence?.message).toContain('(B is a fork of A with a 15-event seed, but event 8 differs')
  })
})

describe('totals, deltas and the cost seam', () => {
  it('sums each run and gives B − A per pair; cost appears only with a pricer', () => {
    const a = basic('a')
    const b = new RunWriter('b')
    b.turn().step()
    b.user('list the files')
    b.header()
    const { callIds } = b.wait(1_200).answer('Let me look.', [{ name: 'bash', args: '{"command":"ls"}' }], {
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 50,
    })
    b.wait(5).result(callIds[0] as string, 'a.txt\nb.txt', true)
    b.endStep().endTurn()
    const c = compareSessions(a.log(), b.log())
    expect(c.totals.a).toStrictEqual(LIST_FILES_TOTALS)
    expect(c.totals.b).toMatchObject({
      steps: 1,
      toolCalls: [{ name: 'bash', calls: 1, failures: 1 }],
      modelMs: 1_210,
      toolMs: 10,
      wallMs: 1_255,
    })
    expect(c.pairs[0]?.delta).toStrictEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: null,
      modelMs: 400,
      toolMs: -35,
      wallMs: 365,
    })
    expect('cost' in c.totals.a).toBe(false)
    const priced = compareSessions(a.log(), b.log(), {
      priceStep: (usage, route) => (route.model === 'deepseek-chat' ? (usage.inputTokens ?? 0) / 1000 : null),
    })
    expect(priced.totals.a.cost).toBe(0.2)
    expect(priced.totals.b.cost).toBe(0.1)
    expect(priced.pairs.map((p) => p.delta.cost)).toStrictEqual([0, -0.1])
  })
})

describe('a comparison asked for in parts (the viewer)', () => {
  it('rows first, the first divergence with its row, any range of rows, totals: the whole answer in pieces', () => {
    const a = basic('a').exchange('more', 'More.').exchange('again', 'Again.')
    const b = basic('b').exchange('more', 'More!').exchange('again', 'Again.')
    const whole = compareSessions(a.log(), b.log())
    const parts = new RunComparison(a.log(), b.log())
    expect(parts.aligned.map((p) => [p.a?.turn, p.a?.step, p.b?.turn, p.b?.step])).toStrictEqual([
      [1, 1, 1, 1],
      [1, 2, 1, 2],
      [2, 1, 2, 1],
      [3, 1, 3, 1],
    ])
    expect(parts.firstDivergence()).toStrictEqual({ index: 2, divergence: whole.firstDivergence })
    const rows = [...parts.pairs(2, 4), ...parts.pairs(0, 2)]
    expect(rows.map((r) => r.requestDiff)).toStrictEqual([null, null, null, null])
    expect(rows).toStrictEqual([...whole.pairs.slice(2), ...whole.pairs.slice(0, 2)].map((p) => ({ ...p, requestDiff: null })))
    expect(parts.totals()).toStrictEqual(whole.totals)
    expect(parts.partedLine()).toBe(
      'A and B parted at turn 2 step 1: the same request got a different answer (A seq 21, B seq 21)',
    )
  })
})

describe('a pair asked for in full', () => {
  it('gives both requests as the Request view builds them, with a mark per message', () => {
    const comparison = new RunComparison(basic('a').log(), basic('b', { result: 'a.txt' }).log())
    const detail = comparison.pairDetail(1)
    expect(detail?.a).toStrictEqual(stepRequest(comparison.a.log, 1))
    expect(detail?.b).toStrictEqual(stepRequest(comparison.b.log, 1))
    expect(detail?.marks).toStrictEqual({ a: ['same', 'same', 'differs'], b: ['same', 'same', 'differs'] })
    expect(detail?.requestDiff?.firstMessage).toMatchObject({ index: 2, aSeq: 8, bSeq: 8 })
    expect(comparison.pairDetail(9)).toBeNull()
  })
})
