/**
 * A log's cost facts as compact JSON for the usage cache (`facts/`, read to price a log again under another card,
 * currency or time zone): a step is one array of numbers (its model an index into the file's model table), a fraction
 * of its size as objects. `decodeFacts` gives back exactly what `encodeFacts` was given (a test round-trips every
 * fixture).
 */

import type { BreakCause, CostFacts, HeaderField, StepFact, SummaryFact, TokenCounts } from '../../core/index.ts'

type Counts = [number, number, number, number, number | null] | null
type Cause = [0 | 1 | 2, number] | [3, HeaderField[]]
type EncodedStep = [number, number, number, number | null, number, Counts, Counts, Cause[], number, number | null]
type EncodedSummary = [number, string | null, number | null, number | null, number, Counts]

export interface EncodedFacts {
  /** `[provider, model]` pairs the steps and summaries point at. */
  readonly models: [string | null, string | null][]
  readonly steps: EncodedStep[]
  readonly summaries: EncodedSummary[]
  readonly inherited: number
}

const KINDS = ['compaction', 'prune', 'rewrite'] as const

const counts = (t: TokenCounts | null): Counts =>
  t === null ? null : [t.input, t.cacheRead, t.cacheWrite, t.output, t.reasoning]
const tokens = (c: Counts): TokenCounts | null =>
  c === null ? null : { input: c[0], cacheRead: c[1], cacheWrite: c[2], output: c[3], reasoning: c[4] }

export function encodeFacts(facts: CostFacts): EncodedFacts {
  const models: [string | null, string | null][] = []
  const refs = new Map<string, number>()
  const ref = (provider: string | null, model: string | null): number => {
    const key = JSON.stringify([provider, model])
    let at = refs.get(key)
    if (at === undefined) {
      at = models.push([provider, model]) - 1
      refs.set(key, at)
    }
    return at
  }
  return {
    models,
    steps: facts.steps.map((s): EncodedStep => [
      s.turn,
      s.step,
      s.atSeq,
      s.at,
      ref(s.provider, s.model),
      counts(s.usage),
      counts(s.retried),
      s.breakCauses.map((c): Cause => (c.kind === 'header' ? [3, [...c.fields]] : [KINDS.indexOf(c.kind) as 0 | 1 | 2, c.seq])),
      s.removedTokens,
      s.previousPrompt,
    ]),
    summaries: facts.summaries.map((s): EncodedSummary => [
      s.seq,
      s.compactionId,
      s.turn,
      s.at,
      ref(s.provider, s.model),
      counts(s.usage),
    ]),
    inherited: facts.inherited,
  }
}

export function decodeFacts(encoded: EncodedFacts): CostFacts {
  const model = (i: number) => encoded.models[i] ?? [null, null]
  return {
    steps: encoded.steps.map((e): StepFact => {
      const [provider, name] = model(e[4])
      return {
        turn: e[0],
        step: e[1],
        atSeq: e[2],
        at: e[3],
        provider,
        model: name,
        usage: tokens(e[5]),
        retried: tokens(e[6]),
        breakCauses: e[7].map((c): BreakCause =>
          c[0] === 3 ? { kind: 'header', fields: c[1] } : { kind: KINDS[c[0]], seq: c[1] },
        ),
        removedTokens: e[8],
        previousPrompt: e[9],
      }
    }),
    summaries: encoded.summaries.map((e): SummaryFact => {
      const [provider, name] = model(e[4])
      return { seq: e[0], compactionId: e[1], turn: e[2], at: e[3], provider, model: name, usage: tokens(e[5]) }
    }),
    inherited: encoded.inherited,
  }
}
