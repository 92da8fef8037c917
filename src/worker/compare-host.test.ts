/**
 * The worker holding two runs (issue 38): run A in its main log, run B in the other, both loaded through the same
 * protocol (a file, a stream), and the Compare view's answers over them equal to what `dsh-lens diff --json` prints
 * for the same two logs (the core's `compareSessions`). The other run's load sends its progress and its final summary
 * only (no pane reads it while it loads); a newer load makes the next answer compare the logs as they are then, and
 * closing the view lets the other run go.
 */

import { describe, expect, it } from 'vitest'
import { compareSessions, RunComparison, stepRequest } from '../core/index.ts'
import type { ClientEvent, LensClient } from '../protocol/lens-client.ts'
import { loadTwins } from '../test-support/compare-kit.ts'
import { createInThreadClient } from './in-thread-client.ts'

const twins = loadTwins({
  session: {
    seed: 11,
    targetEvents: 700,
    compactionEveryTurns: 2,
    pruneEveryTurns: 2,
    pruneMinBytes: 200,
    toolResultMedianBytes: 400,
    toolResultMaxBytes: 3_000,
    hugeToolResultEvery: 0,
    stepsPerTurn: [1, 4],
    reasoningTokens: 6,
    textTokens: 10,
  },
  twinSeed: 5,
  divergence: { kind: 'surface-op', site: 1 },
})
const expected = compareSessions(twins.logA, twins.logB)
const encoder = new TextEncoder()

/** Every load event the client heard, and a wait for one load's final summary. */
function listen(client: LensClient) {
  const events: ClientEvent[] = []
  client.subscribe((event) => events.push(event))
  const final = (loadId: number) =>
    expect
      .poll(() => events.some((e) => e.type === 'summary' && e.loadId === loadId && e.summary.final), { timeout: 30_000 })
      .toBe(true)
  return { events, final }
}

/** A in the main log (a file), B in the other (a stream in small chunks, as the server's appends arrive). */
async function loadBoth(client: LensClient, a = twins.textA, b = twins.textB) {
  const heard = listen(client)
  const main = client.loadFile(new File([a], 'a.jsonl'))
  const other = client.beginStream('b.jsonl', null, false, 'other')
  const bytes = encoder.encode(b)
  for (let at = 0; at < bytes.length; at += 4096) client.pushChunk(other, bytes.slice(at, at + 4096))
  client.endStream(other)
  await heard.final(main)
  await heard.final(other)
  return { ...heard, main, other }
}

describe('the worker with two runs', () => {
  it('answers the Compare view as dsh-lens diff --json answers the same logs', async () => {
    const client = createInThreadClient()
    const { events, main, other } = await loadBoth(client)
    // B's load: progress and one final summary, no first window (no pane reads it while it loads).
    const ofB = events.filter((e) => e.type !== 'snapshot' && e.loadId === other)
    expect(ofB.filter((e) => e.type === 'summary').map((e) => e.type === 'summary' && e.summary.final)).toStrictEqual([true])
    expect(ofB.some((e) => e.type === 'summary' && e.firstWindow !== undefined)).toBe(false)
    expect(events.some((e) => e.type === 'summary' && e.loadId === main && e.firstWindow !== undefined)).toBe(true)

    const overview = await client.query('compare-overview', {})
    const first = expected.pairs.findIndex((p) => !p.same)
    expect(overview.first).toStrictEqual({ index: first, divergence: expected.firstDivergence })
    expect(overview.pairCount).toBe(expected.pairs.length)
    expect(overview.fork).toStrictEqual(expected.fork)
    expect(overview.parted).toBe(new RunComparison(twins.logA, twins.logB).partedLine())
    expect(overview.runs.a).toStrictEqual({
      sessionId: twins.logA.header?.id,
      events: twins.logA.length,
      turns: twins.logA.turns.turns.length,
      steps: expected.totals.a.steps,
    })

    // Rows by range, as the list asks for what it shows: the CLI's pairs without their request diffs.
    const rows = [
      ...(await client.query('compare-pairs', { from: 0, to: 10 })).pairs,
      ...(await client.query('compare-pairs', { from: 10, to: expected.pairs.length + 5 })).pairs,
    ]
    expect(rows).toStrictEqual(expected.pairs.map((p) => ({ ...p, requestDiff: null })))
    expect(await client.query('compare-totals', {})).toStrictEqual(expected.totals)

    // The first divergence's pair in full: the CLI's request diff, both requests as the Request view lists them.
    const pair = await client.query('compare-pair', { index: first })
    expect(pair?.requestDiff).toStrictEqual(expected.pairs[first]?.requestDiff)
    expect(pair?.pair).toStrictEqual({ ...expected.pairs[first], requestDiff: null })
    const detail = new RunComparison(twins.logA, twins.logB).pairDetail(first)
    expect(pair?.a?.rows.map((r) => r.seq)).toStrictEqual(detail?.a?.messages.map((m) => m.seq))
    expect(pair?.b?.rows.map((r) => r.seq)).toStrictEqual(detail?.b?.messages.map((m) => m.seq))
    expect(pair?.a?.marks).toStrictEqual(detail?.marks?.a)
    expect(pair?.b?.marks).toStrictEqual(detail?.marks?.b)
    expect(pair?.a?.marks).toContain('differs')
    expect(pair?.a?.request.atSeq).toBe(expected.pairs[first]?.a?.atSeq)
    expect(await client.query('compare-pair', { index: expected.pairs.length })).toBeNull()

    // The main log is still the page's: its own answers are A's.
    const position = (await client.query('step-list', {})).steps.length - 1
    expect(position + 1).toBe(expected.totals.a.steps)
    expect((await client.query('step-request-json', { turn: 1, step: 1 })).text).toBe(
      `${JSON.stringify(stepRequest(twins.logA, 0))}\n`,
    )
    client.dispose()
  })

  it('compares the logs as they are now after a newer load, and lets the other run go when the view closes', async () => {
    const client = createInThreadClient()
    await loadBoth(client)
    expect((await client.query('compare-overview', {})).first).not.toBeNull()
    // B opened in the main log too: B against B is the same run.
    const heard = listen(client)
    const again = client.loadFile(new File([twins.textB], 'b.jsonl'))
    await heard.final(again)
    const same = await client.query('compare-overview', {})
    expect(same.first).toBeNull()
    expect(same.parted).toBe(new RunComparison(twins.logB, twins.logB).partedLine())
    expect(await client.query('compare-close', {})).toBeNull()
    expect((await client.query('compare-overview', {})).runs.b).toStrictEqual({ sessionId: null, events: 0, turns: 0, steps: 0 })
    // The main log stays.
    expect((await client.query('compare-overview', {})).runs.a.events).toBe(twins.logB.length)
    client.dispose()
  })
})
