/**
 * A direct reading of a log's times, written apart from src/core/timing: it walks the expanded event list (packed
 * rows as their member events, so a member's time is time0 + its dt's) with plain array scans, the way a person
 * would read the file, and says what `lens timing --json` must answer. The tracker gathers the same facts at ingest
 * in one pass; if the two ever disagree, one of them misreads the log.
 *
 * The step's logged usage is the Request view's (`stepList(log)[p].usage`): timing must show the same usage.
 */

import type { TimingJson, TimingTotals, TimingWarning } from '../core/index.ts'

type Event = Record<string, unknown>

const isEvent = (value: unknown): value is Event => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A usable time: a safe integer other than 0. */
function timeOf(event: unknown): number | null {
  const time = isEvent(event) ? event['time'] : undefined
  return typeof time === 'number' && Number.isSafeInteger(time) && time !== 0 ? time : null
}

const typeOf = (event: unknown): unknown => (isEvent(event) ? event['type'] : undefined)
const dataOf = (event: unknown): Event => (isEvent(event) && isEvent(event['data']) ? event['data'] : {})

function between(start: number | null, end: number | null): number | null {
  return start === null || end === null || end < start ? null : end - start
}

interface Step {
  turn: number
  step: number
  start: number
  end: number | null
}

/** Turns and steps as the log's boundary events say (a step only inside an open turn). */
function stepsOf(events: readonly unknown[]): Step[] {
  const steps: Step[] = []
  let open: { turn: number; steps: Step[] } | null = null
  events.forEach((event, i) => {
    const data = dataOf(event)
    const num = (key: string) => (typeof data[key] === 'number' ? (data[key] as number) : -1)
    switch (typeOf(event)) {
      case 'turn/start':
        open = { turn: num('turn'), steps: [] }
        break
      case 'step/start':
        if (open !== null) {
          const step = { turn: open.turn, step: num('step'), start: i, end: null }
          open.steps.push(step)
          steps.push(step)
        }
        break
      case 'step/end': {
        const last = open?.steps.at(-1)
        if (last !== undefined && last.end === null) last.end = i
        break
      }
      case 'turn/end': {
        const last = open?.steps.at(-1)
        if (last !== undefined && last.end === null) last.end = i
        open = null
        break
      }
      default:
        break
    }
  })
  return steps
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

export function directTiming(events: readonly unknown[], usages: readonly (Record<string, unknown> | null)[]): TimingJson {
  const steps = stepsOf(events)
  let clock: number | null = null
  const backwards: number[] = []
  const zeros: number[] = []
  let firstBack = 0
  events.forEach((event, i) => {
    if (isEvent(event) && event['time'] === 0) zeros.push(i)
    const time = timeOf(event)
    if (time === null) return
    if (clock !== null && time < clock) {
      if (backwards.length === 0) firstBack = clock - time
      backwards.push(i)
    }
    clock = time
  })
  /** A duration between events `from` and `to`: none when the clock stepped back anywhere after `from` up to `to`. */
  const span = (from: number, to: number): number | null =>
    from >= 0 && to >= 0 && backwards.some((b) => b > from && b <= to) ? null : between(timeOf(events[from]), timeOf(events[to]))
  const seqAt = (i: number): number => {
    const seq = isEvent(events[i]) ? (events[i] as Event)['seq'] : undefined
    return typeof seq === 'number' ? seq : i
  }
  const firstIn = (from: number, to: number, types: readonly string[]): number => {
    for (let i = from; i <= to; i++) if (types.includes(typeOf(events[i]) as string)) return i
    return -1
  }
  /** The step each event belongs to for calls and retries: the last one started before it, still open at it. */
  const owners: (Step | undefined)[] = []
  let started = -1
  for (let i = 0; i < events.length; i++) {
    while (started + 1 < steps.length && (steps[started + 1] as Step).start < i) started++
    const step = steps[started]
    owners.push(step !== undefined && (step.end === null || step.end > i) ? step : undefined)
  }
  const answerOf = (callIndex: number, callId: string): number => {
    for (let j = callIndex + 1; j < events.length; j++) {
      const type = typeOf(events[j])
      if (type === 'turn/end') return -1
      if (type === 'tool/call' && dataOf(events[j])['callId'] === callId) return -1
      if (type !== 'tool/result') continue
      const data = dataOf(events[j])
      const source = isEvent(data['message']) ? data['message']['source'] : undefined
      // A pre-identity result `{turn, step, callId, content, isError}` names its call at the top (reference 1.7).
      const answers = isEvent(source) ? source['callId'] : data['message'] === undefined ? data['callId'] : undefined
      if (answers === callId) return j
    }
    return -1
  }

  const modelTimes: (number | null)[] = []
  const out = steps.map((s, p) => {
    const last = s.end ?? events.length - 1
    const firstOutput = firstIn(s.start + 1, last, ['assistant/chunk', 'assistant/message'])
    const message = firstIn(s.start + 1, last, ['assistant/message'])
    const atIndex = firstOutput >= 0 ? firstOutput - 1 : last
    const requestAt = timeOf(events[atIndex])
    const firstOutputAt = firstOutput >= 0 ? timeOf(events[firstOutput]) : null
    const lastOutputAt = message >= 0 ? timeOf(events[message]) : null
    const generationMs = firstOutput >= 0 && message >= 0 ? span(firstOutput, message) : null
    const usage = usages[p] ?? null
    const outputTokens = num(usage?.['outputTokens'])
    const read = num(usage?.['cacheReadTokens'])
    const billed = (num(usage?.['inputTokens']) ?? 0) + (read ?? 0) + (num(usage?.['cacheWriteTokens']) ?? 0)
    const tools: { callId: string; name: string | null; ms: number | null }[] = []
    const retries: { seq: number; waitMs: number | null }[] = []
    const end = s.end ?? events.length - 1
    for (let i = s.start + 1; i <= end; i++) {
      const event = events[i]
      if (owners[i] !== s) continue
      const data = dataOf(event)
      if (typeOf(event) === 'tool/call' && typeof data['callId'] === 'string') {
        const answer = answerOf(i, data['callId'])
        tools.push({
          callId: data['callId'],
          name: typeof data['name'] === 'string' ? data['name'] : null,
          ms: answer < 0 ? null : span(i, answer),
        })
      }
      if (typeOf(event) === 'llm/retry') retries.push({ seq: seqAt(i), waitMs: num(data['delayMs']) })
    }
    modelTimes.push(message >= 0 ? span(atIndex, message) : null)
    return {
      turn: s.turn,
      step: s.step,
      atSeq: seqAt(atIndex),
      requestAt,
      firstOutputAt,
      lastOutputAt,
      ttftMs: firstOutput >= 0 ? span(atIndex, firstOutput) : null,
      generationMs,
      outputTokens,
      tokensPerSecond:
        outputTokens === null || generationMs === null || generationMs === 0 ? null : outputTokens / (generationMs / 1000),
      cacheHit: read === null || billed === 0 ? null : read / billed,
      tools,
      retries,
    }
  })

  const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null)
  const sumOrNull = (values: (number | null)[]) => (known(values).length === 0 ? null : known(values).reduce((a, b) => a + b, 0))
  const ttfts = known(out.map((s) => s.ttftMs)).sort((a, b) => a - b)
  const rank = (p: number) => (ttfts.length === 0 ? null : (ttfts[Math.max(0, Math.ceil(p * ttfts.length) - 1)] as number))
  const rated = out.filter((s) => s.tokensPerSecond !== null)
  const rateMs = rated.reduce((n, s) => n + (s.generationMs as number), 0)
  const cached = out.map((s, p) => ({ s, u: usages[p] ?? null })).filter(({ s }) => s.cacheHit !== null)
  const cacheRead = cached.reduce((n, { u }) => n + (num(u?.['cacheReadTokens']) as number), 0)
  const billed = cached.reduce(
    (n, { u }) =>
      n + (num(u?.['inputTokens']) ?? 0) + (num(u?.['cacheReadTokens']) as number) + (num(u?.['cacheWriteTokens']) ?? 0),
    0,
  )
  const usageSum = (key: string) => sumOrNull(out.map((_, p) => num(usages[p]?.[key])))
  const totals: TimingTotals = {
    turns: new Set(out.map((s) => s.turn)).size,
    steps: out.length,
    modelMs: sumOrNull(modelTimes),
    toolMs: sumOrNull(out.flatMap((s) => s.tools.map((t) => t.ms))),
    ttftMedianMs: rank(0.5),
    ttftP95Ms: rank(0.95),
    tokensPerSecond: rateMs > 0 ? rated.reduce((n, s) => n + (s.outputTokens as number), 0) / (rateMs / 1000) : null,
    cacheHit: billed > 0 ? cacheRead / billed : null,
    inputTokens: usageSum('inputTokens'),
    outputTokens: usageSum('outputTokens'),
    cacheReadTokens: usageSum('cacheReadTokens'),
    cacheWriteTokens: usageSum('cacheWriteTokens'),
    retries: out.reduce((n, s) => n + s.retries.length, 0),
    retryWaitMs: sumOrNull(out.flatMap((s) => s.retries.map((r) => r.waitMs))),
  }

  const warnings: TimingWarning[] = []
  if (backwards.length > 0) {
    const seq = seqAt(backwards[0] as number)
    warnings.push({
      code: 'clock-backwards',
      seq,
      count: backwards.length,
      message: `the clock goes backwards ${backwards.length === 1 ? 'once' : `${backwards.length} times`}, first at seq ${seq} (by ${firstBack} ms): durations that span a backward step are left out`,
    })
  }
  if (zeros.length > 0) {
    const seq = seqAt(zeros[0] as number)
    warnings.push({
      code: 'clock-zero',
      seq,
      count: zeros.length,
      message: `${zeros.length === 1 ? 'one event has' : `${zeros.length} events have`} time 0 (no clock reading), first at seq ${seq}: durations from or to them are left out`,
    })
  }
  return { steps: out, totals, warnings }
}
