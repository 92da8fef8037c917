/**
 * Logs of realistic steps (requestLogArb's) with provider defects injected into some of them (StepDefect:
 * orphaned results, unanswered calls, duplicated and empty call ids, lone surrogates, a user message between calls
 * and results), and at times a compaction of the whole surface that takes every broken pairing off. The harness's
 * fold accepts them all: these defects are what only a provider refuses.
 */

import fc from 'fast-check'
import type { TestEvent } from './log-builder.ts'
import { buildRequestLog, itemArb, oneIn, requestStepArb } from './request-log-arbitrary.ts'
import type { RequestScriptItem, StepDefect } from './request-log-builder.ts'

export const DEFECTS: readonly StepDefect[] = ['orphan', 'unanswered', 'duplicate', 'empty-id', 'surrogate', 'user-between']

const defectArb: fc.Arbitrary<StepDefect | null> = oneIn(3, fc.constantFrom(...DEFECTS))

/** A request step with a defect one time in three; calls more often than requestLogArb's, so defects have calls to break. */
const brokenStepArb: fc.Arbitrary<RequestScriptItem> = fc
  .record({ step: requestStepArb(true), defect: defectArb, calls: fc.integer({ min: 1, max: 3 }) })
  .map(({ step, defect, calls }) => ({ ...step, calls, defect }))

const brokenItemArb: fc.Arbitrary<RequestScriptItem> = fc.oneof(
  { weight: 6, arbitrary: brokenStepArb },
  { weight: 4, arbitrary: itemArb },
  { weight: 1, arbitrary: fc.constant<RequestScriptItem>({ kind: 'compact-all' }) },
)

/**
 * Steps that break nothing: no defect, no compaction that could split a call from its result (the random
 * `compact` ranges, before the request or between chunks, do), calls answered right after them.
 */
const cleanItemArb: fc.Arbitrary<RequestScriptItem> = fc.oneof(
  {
    weight: 6,
    arbitrary: requestStepArb(true).map((s) => ({ ...s, compactBefore: null, midCompact: null, defect: null })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), pick: fc.nat({ max: 20 }) }) },
  { weight: 1, arbitrary: fc.constant<RequestScriptItem>({ kind: 'turn-boundary' }) },
)

export interface BrokenRequestLog {
  readonly events: TestEvent[]
  /** Event index of each whole-surface compaction's checkpoint. */
  readonly repairs: readonly number[]
}

function build(items: readonly RequestScriptItem[]): BrokenRequestLog {
  const builder = buildRequestLog(items)
  return { events: builder.events, repairs: builder.repairs }
}

/** Defects anywhere, whole-surface compactions at times. */
export const brokenRequestLogArb: fc.Arbitrary<BrokenRequestLog> = fc
  .array(brokenItemArb, { minLength: 1, maxLength: 16, size: 'medium' })
  .map(build)

/** Defects, then one whole-surface compaction, then only clean steps: every request after the compaction is clean. */
export const repairedRequestLogArb: fc.Arbitrary<BrokenRequestLog> = fc
  .record({
    broken: fc.array(brokenStepArb, { minLength: 1, maxLength: 8 }),
    clean: fc.array(cleanItemArb, { minLength: 1, maxLength: 8 }),
  })
  .map(({ broken, clean }) => build([...broken, { kind: 'compact-all' }, ...clean]))
