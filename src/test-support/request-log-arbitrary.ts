/**
 * fast-check arbitrary for logs made of realistic steps (RequestLogBuilder): header changes of every field,
 * every kind of provider output, compactions before the request and between chunks (over earlier summaries
 * too), prunes (of pruned results too), late injections, turn boundaries, and at times a last step still open.
 * Each value carries the script's own model of every step's request. Every value is plain JSON (ASCII strings,
 * small integers): the lane under test goes through JSONL bytes.
 */

import fc from 'fast-check'
import type { TestEvent } from './log-builder.ts'
import {
  HEADER_CHOICES,
  RequestLogBuilder,
  type HeaderEdit,
  type ModelStep,
  type ProviderOutput,
  type RequestScriptItem,
  type RequestStepScript,
} from './request-log-builder.ts'

export const text = fc.string({ maxLength: 6 })
const range = fc.record({ from: fc.nat({ max: 40 }), length: fc.nat({ max: 8 }) })

/** `arb` once in `oneIn` draws, else null. */
export const oneIn = <T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 1, arbitrary: arb }, { weight: n - 1, arbitrary: fc.constant(null) })

/** Each field kept (null) 4 times in 5: a write changes one field, several, or none (the same header again). */
const keep = <T>(arb: fc.Arbitrary<T>) => oneIn(5, arb)
const headerArb: fc.Arbitrary<HeaderEdit> = fc.record({
  provider: keep(fc.nat({ max: HEADER_CHOICES.providers - 1 })),
  model: keep(fc.nat({ max: HEADER_CHOICES.models - 1 })),
  effort: keep(fc.nat({ max: HEADER_CHOICES.efforts - 1 })),
  adapter: keep(fc.boolean()),
  system: keep(fc.nat({ max: HEADER_CHOICES.systems - 1 })),
  tools: keep(fc.nat({ max: HEADER_CHOICES.tools - 1 })),
  leftover: keep(fc.boolean()),
})

export const outputArb: fc.Arbitrary<ProviderOutput> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<ProviderOutput>('stream') },
  { weight: 2, arbitrary: fc.constant<ProviderOutput>('message') },
  { weight: 1, arbitrary: fc.constant<ProviderOutput>('max-tokens') },
  { weight: 1, arbitrary: fc.constant<ProviderOutput>('error') },
  { weight: 1, arbitrary: fc.constant<ProviderOutput>('none') },
)

export const requestStepArb = (close: boolean, output = outputArb): fc.Arbitrary<RequestStepScript> =>
  fc.record({
    kind: fc.constant('request-step' as const),
    users: fc.array(text, { maxLength: 2 }),
    compactBefore: oneIn(6, range),
    // Half the steps write a header (a change, or the same one again); the others reuse the one in force.
    header: oneIn(2, headerArb),
    context: fc.boolean(),
    retry: fc.boolean(),
    output,
    text,
    deltas: fc.nat({ max: 6 }),
    reasoning: fc.boolean(),
    calls: fc.nat({ max: 2 }),
    resultSize: fc.nat({ max: 30 }),
    // Near the estimate of the unchanged prefix, far above it (a cache warning), or not logged.
    cacheRead: fc.oneof(fc.nat({ max: 300 }), fc.integer({ min: 300, max: 20_000 }), fc.constant(null)),
    midCompact: oneIn(6, range),
    prune: oneIn(3, fc.nat({ max: 20 })),
    lateUser: oneIn(6, text),
    close: fc.constant(close),
  })

export const itemArb: fc.Arbitrary<RequestScriptItem> = fc.oneof(
  { weight: 8, arbitrary: requestStepArb(true) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('user' as const), text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('log-only' as const), which: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'turn-boundary' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('compact' as const), from: fc.nat({ max: 40 }), length: fc.nat({ max: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), pick: fc.nat({ max: 20 }) }) },
)

export interface RequestLog {
  readonly events: TestEvent[]
  /** The script's model of every step, in log order. */
  readonly steps: readonly ModelStep[]
  readonly entered: ReadonlyMap<number, number>
  readonly left: ReadonlyMap<number, number>
  readonly derivesNothing: ReadonlySet<number>
  /** Write chunk runs as packed rows, and feed the bytes in two pushes split at `cut` (a fraction of the length). */
  readonly packed: boolean
  readonly cut: number
}

export function buildRequestLog(items: readonly RequestScriptItem[]): RequestLogBuilder {
  const builder = new RequestLogBuilder()
  for (const item of items) builder.applyItem(item)
  builder.finish()
  return builder
}

export const requestLogArb: fc.Arbitrary<RequestLog> = fc
  .record({
    items: fc.array(itemArb, { minLength: 1, maxLength: 18, size: 'medium' }),
    // A live log: its last step still open, half the time before any output.
    last: oneIn(3, requestStepArb(false, fc.oneof(outputArb, fc.constant<ProviderOutput>('none')))),
    packed: fc.boolean(),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ items, last, packed, cut }) => {
    const builder = buildRequestLog(last === null ? items : [...items, last])
    return {
      events: builder.events,
      steps: builder.steps,
      entered: builder.entered,
      left: builder.left,
      derivesNothing: builder.derivesNothing,
      packed,
      cut,
    }
  })
