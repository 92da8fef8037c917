/**
 * The harness's session invariant companion (`@deepseek-ai/dsh-session/invariant`, reference 3.3),
 * replayed over a log the way it validates a session it seeds: turn and step brackets, strictly
 * increasing seqs, tool results answering a pending `tool/call` of the open step. Its texts are the
 * harness's, with the prefix its invariant service adds.
 *
 * The harness throws at the first violation. Here every event is judged (its first failing rule,
 * as the harness would report it) and its transition is applied anyway, since the event is in the
 * log, and a skipped turn or step number re-synchronises on the log's own: one missing `turn/end`
 * is one warning, not a cascade over the rest of the log.
 */

import { prop, seqOrNull, show, type FindingSink } from './finding.ts'

const PACKAGE = '@deepseek-ai/dsh-session'
/** `TOOL_NOT_STARTED` (repair.ts): the synthetic result the harness's repair writes for a call that never ran. */
const TOOL_NOT_STARTED = 'TOOL_NOT_STARTED'

export const sessionInvariantText = (message: string): string => `invariant violated by "${PACKAGE}": ${message}`

const GENERIC =
  'The harness refuses an append (or a whole log when it seeds a session) that breaks this when its invariant companions are loaded; the surface fold does not check it. Following events that fail with the same text are not listed again.'

/** What the rule behind a companion text means, in plain words. */
const PLAIN: readonly [RegExp, string][] = [
  [/^seq must strictly increase/, 'Seqs go backwards or repeat here.'],
  [/^turn\/start \S+ while turn/, 'A turn starts before the previous one has ended (its turn/end is missing).'],
  [
    /expected (turn|step)/,
    'Turns are numbered 1, 2, ... across the log and steps 1, 2, ... within a turn, with no gap or repeat.',
  ],
  [/^turn\/end \S+ does not match/, 'A turn/end for a turn that is not the open one.'],
  [/while step \S+ is still open/, 'A step is still open here: its step/end is missing.'],
  [/^step\/start in turn/, 'A step starts outside its turn (no turn/start, or another turn is open).'],
  [/names turn .* but open is/, 'This event belongs to a step that is not the open one (or no step/start opened it).'],
  [/no prior tool\/call in this step/, 'A tool result whose call (tool/call) was not made in this step.'],
  [/outside any open turn/, 'This event must be inside a turn.'],
]

export function explainSessionRule(message: string): string {
  const plain = PLAIN.find(([pattern]) => pattern.test(message))?.[1]
  return plain === undefined ? GENERIC : `${plain} ${GENERIC}`
}

/** The fields the companion reads of an event and its data. */
interface EventFields {
  readonly seq?: unknown
  readonly type?: unknown
  readonly data?: unknown
  readonly surfaceOp?: unknown
}

interface DataFields {
  readonly turn?: unknown
  readonly step?: unknown
  readonly callId?: unknown
  readonly message?: unknown
}

export class SessionCompanion {
  private lastSeq: unknown = -1
  private openTurn: unknown = null
  private openStep: unknown = null
  private nextTurn: unknown = 1
  private nextStep: unknown = 1
  private readonly pendingCalls = new Set<unknown>()
  private failure: string | undefined
  private lastFailure: string | undefined
  private lastIndex = -2

  constructor(private readonly sink: FindingSink) {}

  /** Judge one event (not a packed row), then apply its transition. */
  observe(event: unknown, index: number): void {
    this.failure = undefined
    this.validate(event)
    const failure = this.failure
    // A run of events failing with the same text (say, every chunk of a step with no step/start) is one warning.
    const repeat = failure !== undefined && failure === this.lastFailure && index === this.lastIndex + 1
    this.lastFailure = failure
    this.lastIndex = index
    if (failure === undefined || repeat) return
    this.sink({
      code: 'session-invariant',
      index,
      seq: seqOrNull(event),
      message: sessionInvariantText(failure),
      detail: explainSessionRule(failure),
    })
  }

  /**
   * A packed row of `size` chunks: every member names the row's turn and step and their seqs run
   * on from `seq0`, so judging the first member judges them all (one warning for the row).
   */
  observeChunkRun(seq0: number, size: number, turn: unknown, step: unknown, index: number): void {
    this.observe({ type: 'assistant/chunk', seq: seq0, data: { turn, step } }, index)
    this.lastSeq = seq0 + size - 1
    this.lastIndex = index + size - 1
  }

  /** The first failure wins, as when the harness's `fail` throws. */
  private fail(message: string): void {
    this.failure ??= message
  }

  private requireOpenStep(kind: string, turn: unknown, step: unknown): void {
    if (this.openTurn !== turn || this.openStep !== step) {
      this.fail(
        `${kind} names turn ${show(turn)}/step ${show(step)} but open is turn ${show(this.openTurn)}/step ${show(this.openStep)}`,
      )
    }
  }

  private validate(value: unknown): void {
    // Read as `event?.key` reads any JSON value (a primitive reads undefined for these keys): direct loads, not
    // `prop`, since this runs for every event and one shared accessor sees every shape.
    const event = value as EventFields
    const seq = event.seq
    // JS comparison semantics on whatever the seq is, as the harness's `event.seq <= trace.lastSeq`.
    if ((seq as number) <= (this.lastSeq as number))
      this.fail(`seq must strictly increase: saw ${show(seq)} after ${show(this.lastSeq)}`)
    this.lastSeq = seq
    const type = event.type
    const data = event.data as DataFields | null | undefined
    const turn = data?.turn
    const step = data?.step
    switch (type) {
      case 'turn/start':
        if (this.openTurn !== null) this.fail(`turn/start ${show(turn)} while turn ${show(this.openTurn)} is still open`)
        if (turn !== this.nextTurn) {
          this.fail(`turn/start expected turn ${show(this.nextTurn)}, got ${show(turn)}`)
          // Re-synchronise on the log's own numbering: one skipped number is one warning.
          this.nextTurn = turn
        }
        this.openTurn = turn
        this.nextStep = 1
        return
      case 'turn/end':
        if (this.openTurn !== turn) this.fail(`turn/end ${show(turn)} does not match open turn ${show(this.openTurn)}`)
        if (this.openStep !== null) this.fail(`turn/end ${show(turn)} while step ${show(this.openStep)} is still open`)
        this.openTurn = null
        this.nextTurn = (this.nextTurn as number) + 1
        return
      case 'step/start':
        if (this.openTurn !== turn) this.fail(`step/start in turn ${show(turn)} but open turn is ${show(this.openTurn)}`)
        if (this.openStep !== null) this.fail(`step/start ${show(step)} while step ${show(this.openStep)} is still open`)
        if (step !== this.nextStep) {
          this.fail(`step/start expected step ${show(this.nextStep)} in turn ${show(turn)}, got ${show(step)}`)
          this.nextStep = step
        }
        this.openStep = step
        return
      case 'step/end':
        this.requireOpenStep('step/end', turn, step)
        this.pendingCalls.clear()
        this.openStep = null
        this.nextStep = (this.nextStep as number) + 1
        return
      case 'assistant/chunk':
      case 'assistant/message':
        this.requireOpenStep(type, turn, step)
        return
      case 'tool/call':
        this.requireOpenStep('tool/call', turn, step)
        this.pendingCalls.add(data?.callId)
        return
      case 'tool/result': {
        // A content rewrite (a prune) is turn work, not a second execution of the call.
        if (event.surfaceOp !== 'append') {
          if (this.openTurn === null) this.fail('tool/result surface replacement appended outside any open turn')
          return
        }
        this.requireOpenStep('tool/result', turn, step)
        const message = data?.message
        const callId = prop(prop(message, 'source'), 'callId')
        const first = (prop(message, 'content') as unknown[] | undefined)?.[0]
        const notStarted = prop(first, 'isError') === true && prop(prop(data, 'error'), 'code') === TOOL_NOT_STARTED
        if (!this.pendingCalls.has(callId) && !notStarted)
          this.fail(`tool/result for ${show(callId)} with no prior tool/call in this step`)
        this.pendingCalls.delete(callId)
        return
      }
      case 'todo/write':
      case 'request/header':
      case 'request/context':
        if (this.openTurn === null)
          this.fail(`${type} appended outside any open turn (core execution events must be turn-enclosed)`)
        return
      default:
        // user/message, session/end-seed and every plugin type are unconstrained here.
        return
    }
  }
}
