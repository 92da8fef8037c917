/**
 * The harness's compaction invariant companion (`@deepseek-ai/dsh-compaction/invariant`, reference
 * 3.3): one compaction bracket open at a time, on the right side of turn boundaries; a summary and a
 * checkpoint only inside their own bracket; a successful end only after a summary. Its texts are the
 * harness's, with the prefix its invariant service adds.
 *
 * As with the session companion, every event is judged and its transition applied anyway.
 *
 * Seeding exempts a turn boundary that crosses a *stale* start (one left unmatched before a later
 * `session/end-seed`: a crashed compaction the next lifecycle abandoned), which needs the rest of
 * the log. So a crossing is held until the bracket is settled: a `compaction/end` or another
 * `compaction/start` reports it, an end-seed drops it, and `finish()` reports what is still held.
 */

import { prop, seqOrNull, show, type FindingSink, type InvariantFinding } from './finding.ts'

const PACKAGE = '@deepseek-ai/dsh-compaction'
/** The types `validate` judges; every other event only moves the open turn. */
const CHECKED_TYPES = new Set<unknown>([
  'session/end-seed',
  'user/message',
  'compaction/start',
  'compaction/summary',
  'compaction/end',
])

export const compactionInvariantText = (message: string): string => `invariant violated by "${PACKAGE}": ${message}`

const GENERIC =
  'The harness refuses an append (or a whole log when it seeds a session) that breaks this when its compaction invariant companion is loaded; the surface fold does not check it.'

/** What the rule behind a companion text means, in plain words. */
const PLAIN: readonly [RegExp, string][] = [
  [
    /^compaction checkpoint has no matching/,
    'A compaction summary replaced part of the surface with no compaction/start open before it (written by hand, or its bracket lost).',
  ],
  [/has no matching compaction\/start/, 'This compaction event has no compaction/start open before it.'],
  [
    /cannot cross an open/,
    'A turn boundary inside an open compaction: the compaction neither ended nor was abandoned (by a session/end-seed) first.',
  ],
  [/is still compacting/, 'A compaction starts while another has not ended.'],
  [/requires one compaction\/summary/, 'A compaction ends successfully without having written its summary.'],
  [/repeated within one compaction/, 'A second summary for the same compaction.'],
  [
    /shadowedRange must match|shadowedSeqs must be non-empty|shadowedTokenCount/,
    'The summary does not describe the range it shadows consistently.',
  ],
  [
    /does not match compaction\/start/,
    'This event names another compaction (id, command or owning turn) than the one that is open.',
  ],
  [
    /standalone but turn|for turn .* outside any open turn|names turn .* but open turn/,
    'The compaction is on the wrong side of a turn boundary: one for a turn must sit inside it, a manual one between turns.',
  ],
  [/must be a non-empty string/, 'A compaction id (or command id) is missing or empty.'],
]

export function explainCompactionRule(message: string): string {
  const plain = PLAIN.find(([pattern]) => pattern.test(message))?.[1]
  return plain === undefined ? GENERIC : `${plain} ${GENERIC}`
}

interface OpenCompaction {
  readonly compactionId: unknown
  readonly sourceCommandId: unknown
  readonly startSeq: unknown
  readonly startIndex: number
  readonly turn: unknown
  summarized: boolean
  /** Turn boundaries that crossed this bracket, reported once it is known not to be stale. */
  readonly crossings: InvariantFinding[]
}

function finding(event: unknown, index: number, message: string): InvariantFinding {
  return {
    code: 'compaction-invariant',
    index,
    seq: seqOrNull(event),
    message: compactionInvariantText(message),
    detail: explainCompactionRule(message),
  }
}

const isCheckpointSource = (source: unknown): boolean => prop(source, 'kind') === 'plugin' && prop(source, 'plugin') === 'compact'

export class CompactionCompanion {
  private openTurn: unknown = null
  private open: OpenCompaction | undefined
  private failure: string | undefined

  constructor(private readonly sink: FindingSink) {}

  observe(event: unknown, index: number): void {
    const type = prop(event, 'type')
    if ((type === 'turn/start' || type === 'turn/end') && this.open !== undefined) {
      const owner = this.open.turn === null ? 'standalone compaction' : `compaction for turn ${show(this.open.turn)}`
      this.open.crossings.push(finding(event, index, `${type} cannot cross an open ${owner}`))
    }
    this.failure = undefined
    this.validate(event, type, index)
    if (this.failure !== undefined) this.sink(finding(event, index, this.failure))
    if (type === 'turn/start') this.openTurn = prop(prop(event, 'data'), 'turn')
    else if (type === 'turn/end') this.openTurn = null
  }

  /** End of the log: a bracket still open was not made stale by an end-seed, so its crossings stand. */
  finish(): void {
    this.settle(true)
    const open = this.open
    if (open === undefined) return
    // Not a companion text (it judges appends, and an open bracket is fine mid-log): dsh-lens's own, for a finished file.
    this.sink({
      code: 'compaction-unclosed',
      index: open.startIndex,
      seq: typeof open.startSeq === 'number' ? open.startSeq : null,
      message: `compaction/start (compaction ${show(open.compactionId)}) has no compaction/end: the log ends while it is open`,
      detail:
        'The compaction crashed, or the log was cut while it ran. Its summary never replaced anything; when the harness resumes the session it appends a session/end-seed, which leaves this start unmatched (stale) for good.',
    })
  }

  private settle(report: boolean): void {
    if (this.open === undefined) return
    if (report) for (const f of this.open.crossings) this.sink(f)
    this.open.crossings.length = 0
  }

  private fail(message: string): void {
    this.failure ??= message
  }

  private validateId(value: unknown, label: string): void {
    if (typeof value !== 'string' || value.length === 0) this.fail(`${label} must be a non-empty string`)
  }

  private validateSourceCommandId(eventType: string, value: unknown, expected: unknown): void {
    if (value !== undefined) this.validateId(value, `${eventType} sourceCommandId`)
    if (value !== expected) {
      this.fail(`${eventType} sourceCommandId ${show(value)} does not match compaction/start sourceCommandId ${show(expected)}`)
    }
  }

  private validateOwner(owner: unknown, eventType: string): void {
    if (owner === null) {
      if (this.openTurn !== null) this.fail(`${eventType} is standalone but turn ${show(this.openTurn)} is open`)
      return
    }
    if (this.openTurn === null) this.fail(`${eventType} for turn ${show(owner)} appended outside any open turn`)
    if (owner !== this.openTurn) this.fail(`${eventType} names turn ${show(owner)} but open turn is ${show(this.openTurn)}`)
  }

  private validate(event: unknown, type: unknown, index: number): void {
    if (!CHECKED_TYPES.has(type)) return
    const data = prop(event, 'data')
    if (type === 'session/end-seed') {
      // A start still open here is stale: seeding ignores the boundaries that crossed it.
      this.settle(false)
      this.open = undefined
      return
    }
    if (type === 'user/message') {
      const op = prop(event, 'surfaceOp')
      if (op !== undefined && op !== 'append' && isCheckpointSource(prop(data, 'source')))
        this.validateCheckpoint(prop(data, 'source'))
      return
    }
    if (type !== 'compaction/start' && type !== 'compaction/summary' && type !== 'compaction/end') return
    const open = this.open
    const compactionId = prop(data, 'compactionId')
    const sourceCommandId = prop(data, 'sourceCommandId')
    this.validateId(compactionId, `${type} compactionId`)
    if (sourceCommandId !== undefined) this.validateId(sourceCommandId, `${type} sourceCommandId`)
    if (type === 'compaction/start') {
      if (open !== undefined) {
        this.fail(
          `compaction/start while ${open.turn === null ? 'standalone compaction' : `turn ${show(open.turn)}`} is still compacting`,
        )
      }
      const turn = prop(data, 'turn')
      this.validateOwner(turn, type)
      this.settle(true)
      this.open = {
        compactionId,
        sourceCommandId,
        startSeq: prop(event, 'seq'),
        startIndex: index,
        turn,
        summarized: false,
        crossings: [],
      }
      return
    }
    if (open === undefined) {
      this.fail(`${type} has no matching compaction/start`)
      return
    }
    if (compactionId !== open.compactionId) {
      this.fail(`${type} id ${show(compactionId)} does not match compaction/start id ${show(open.compactionId)}`)
    }
    this.validateSourceCommandId(type, sourceCommandId, open.sourceCommandId)
    if (type === 'compaction/summary') {
      this.validateOwner(open.turn, type)
      if (open.summarized) this.fail('compaction/summary repeated within one compaction')
      const seqs = prop(data, 'shadowedSeqs') as unknown[] | undefined
      const range = prop(data, 'shadowedRange')
      if (seqs?.length === 0) this.fail('compaction/summary shadowedSeqs must be non-empty')
      const last = Array.isArray(seqs) ? seqs[seqs.length - 1] : undefined
      if (seqs?.[0] !== prop(range, 'start') || last !== prop(range, 'end')) {
        this.fail('compaction/summary shadowedRange must match the first and last shadowedSeqs')
      }
      const tokens = prop(data, 'shadowedTokenCount')
      if (!Number.isSafeInteger(tokens) || (tokens as number) < 0) {
        this.fail('compaction/summary shadowedTokenCount must be a non-negative safe integer')
      }
      open.summarized = true
      return
    }
    const turn = prop(data, 'turn')
    if (turn !== open.turn) {
      this.fail(`compaction/end owner ${show(turn)} does not match compaction/start owner ${show(open.turn)}`)
    }
    this.validateOwner(open.turn, type)
    if (prop(data, 'error') === undefined && !open.summarized)
      this.fail('successful compaction/end requires one compaction/summary')
    this.settle(true)
    this.open = undefined
  }

  private validateCheckpoint(source: unknown): void {
    const compactionId = prop(source, 'compactionId')
    const sourceCommandId = prop(source, 'sourceCommandId')
    this.validateId(compactionId, 'compaction checkpoint compactionId')
    if (sourceCommandId !== undefined) this.validateId(sourceCommandId, 'compaction checkpoint sourceCommandId')
    const open = this.open
    if (open === undefined) {
      this.fail('compaction checkpoint has no matching compaction/start')
      return
    }
    if (compactionId !== open.compactionId) {
      this.fail(`compaction checkpoint id ${show(compactionId)} does not match compaction/start id ${show(open.compactionId)}`)
    }
    this.validateSourceCommandId('compaction checkpoint', sourceCommandId, open.sourceCommandId)
  }
}
