/**
 * The indexes a `LensLog` builds only for readers that ask (issue 35: an answer is paid for when asked). Each is
 * either kept current while the log is read (the reader names it in `LensLogOptions.keep`), or built from the stored
 * records the first time it is asked for and kept current from then on; both ways give the same index (the lazy
 * indexes test in lens-log.test.ts). What each holds, and what building it later reads again:
 *
 * - `transcript`: the transcript's row lists (`allRows`, `messageRows`); the record types, and the message events'
 *   `surfaceOp`;
 * - `compactions`: compaction groups by id and each replacement's link (`compactions`, `replacementLinks`); the
 *   `compaction/*` events, and each replacement with the event before it;
 * - `turns`: turns and steps (`turns`); the turn and step brackets;
 * - `timing`: each step's logged times (`timing`, with `turns`); every event and packed row (every clock reading);
 * - `requests`: the request headers' positions and each surface node's wire shape (`requestHeaders`,
 *   `wireShapes`); the record types, and each surface node's message;
 * - `state`: the positions of the todo lists and goals (`stateEvents`); the record types only.
 */

import { DeriveOutcome, deriveEventMessage } from '../fold/derive-message.ts'
import type { SurfaceTimeline } from '../fold/surface-timeline.ts'
import { textMayHoldSurrogate, type TextRange } from '../invariants/lone-surrogate.ts'
import { Int32Vector } from '../model/growable-array.ts'
import { packedRowSize } from '../decode/packed-rows.ts'
import { isRecord, type LogEvent, type PackedRow } from '../model/log-event.ts'
import { CompactionIndex, type ReplacementLink } from '../projection/compaction-links.ts'
import { TranscriptRows } from '../projection/transcript-rows.ts'
import { TurnStructure } from '../projection/turn-structure.ts'
import { NodeWireShapes } from '../request/node-wire-shapes.ts'
import { StepTimesTracker } from '../timing/step-times.ts'
import { NOT_AN_OBJECT } from './record-types.ts'

export type LogIndex = 'transcript' | 'compactions' | 'turns' | 'timing' | 'requests' | 'state'

export const LOG_INDEXES: readonly LogIndex[] = ['transcript', 'compactions', 'turns', 'timing', 'requests', 'state']

/**
 * What a transcript reader draws from its first rows on (the viewer's worker keeps these while it loads): the rows,
 * the replacements' kinds for the graph, the turn marks.
 */
export const TRANSCRIPT_INDEXES: readonly LogIndex[] = ['transcript', 'compactions', 'turns']

/** What building an index later reads of the log: its stored records, as the log read them. */
export interface IndexSource {
  /** Records stored so far (a packed row is one). */
  readonly recordCount: number
  isRow(record: number): boolean
  firstIndexOf(record: number): number
  /** The packed row stored as `record`. */
  row(record: number): PackedRow
  /** The event stored as `record` (not a row), as the log read it (legacy shapes upgraded), parsed anew. */
  event(record: number): unknown
  /** The event at `index` as the log reads it (`LensLog.event`: a packed member expanded). */
  eventAt(index: number): unknown
  /** The text of the record holding event `index`. */
  textAt(index: number): TextRange
  /** The record's type code (`RecordTypes`), of its upgraded event when the reader upgraded it. */
  typeCode(record: number): number
  typeLabel(code: number): string
  readonly timeline: SurfaceTimeline
  nodeDerives(node: number): DeriveOutcome
}

const MESSAGE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])
const TURN_TYPES = new Set(['turn/start', 'turn/end', 'step/start', 'step/end'])

export class LogIndexes {
  private transcriptRows: TranscriptRows | null = null
  private compactionIndex: CompactionIndex | null = null
  private links: ReplacementLink[] | null = null
  private turnStructure: TurnStructure | null = null
  private stepTimes: StepTimesTracker | null = null
  private headers: Int32Vector | null = null
  private shapes: NodeWireShapes | null = null
  private states: Int32Vector | null = null
  /** The last object event fed while `compactions` is kept: a replacement's link reads the event before it. */
  private previousIndex = -1
  private previousEvent: LogEvent | undefined

  constructor(
    private readonly source: IndexSource,
    keep: readonly LogIndex[],
  ) {
    for (const index of keep) this.build(index)
  }

  holds(which: LogIndex): boolean {
    switch (which) {
      case 'transcript':
        return this.transcriptRows !== null
      case 'compactions':
        return this.compactionIndex !== null
      case 'turns':
        return this.turnStructure !== null
      case 'timing':
        return this.stepTimes !== null
      case 'requests':
        return this.headers !== null
      case 'state':
        return this.states !== null
    }
  }

  get transcript(): TranscriptRows {
    return this.transcriptRows ?? this.build('transcript').transcriptRows!
  }

  get compactions(): CompactionIndex {
    return this.compactionIndex ?? this.build('compactions').compactionIndex!
  }

  /** Aligned with the fold timeline's replacements. */
  get replacementLinks(): ReplacementLink[] {
    return this.links ?? this.build('compactions').links!
  }

  get turns(): TurnStructure {
    return this.turnStructure ?? this.build('turns').turnStructure!
  }

  get timing(): StepTimesTracker {
    return this.stepTimes ?? this.build('timing').stepTimes!
  }

  get requestHeaders(): Int32Vector {
    return this.headers ?? this.build('requests').headers!
  }

  get wireShapes(): NodeWireShapes {
    return this.shapes ?? this.build('requests').shapes!
  }

  get stateEvents(): Int32Vector {
    return this.states ?? this.build('state').states!
  }

  /** Bytes held by the indexes built so far, for the memory benchmark. */
  get byteLength(): number {
    const rows = this.transcriptRows
    const list = (l: { index: Int32Vector }): number => 3 * l.index.byteLength
    return (
      (rows === null ? 0 : list(rows.all) + list(rows.messages)) +
      (this.headers?.byteLength ?? 0) +
      (this.states?.byteLength ?? 0)
    )
  }

  /** A packed row of `size` chunk deltas, the first at event `index`, as the log reads it. */
  observeRow(row: PackedRow, index: number, size: number): void {
    this.stepTimes?.observeRow(row, index, size)
    this.transcriptRows?.observeRun(index, size)
  }

  /**
   * One event (not a packed row) as the log reads it, after the fold. `node`: the surface node it entered, or -1;
   * `replace`: whether that node replaced a range; `mayHoldSurrogate`: whether its text can hold a lone surrogate.
   */
  observe(event: LogEvent, index: number, node: number, replace: boolean, mayHoldSurrogate: boolean): void {
    if (isRecord(event)) {
      if (node >= 0) this.joined(event, index, node, replace, mayHoldSurrogate)
      this.observeObject(event, index)
    }
    this.stepTimes?.observe(event, index, node >= 0)
  }

  private joined(event: LogEvent, index: number, node: number, replace: boolean, mayHoldSurrogate: boolean): void {
    if (this.shapes !== null) {
      const message = this.source.nodeDerives(node) === DeriveOutcome.Message ? deriveEventMessage(event) : null
      this.shapes.push(message, mayHoldSurrogate)
    }
    if (replace && this.links !== null) this.links.push(this.link(event, index))
  }

  private observeObject(event: LogEvent, index: number): void {
    if (this.compactionIndex !== null) {
      this.compactionIndex.observe(event, index)
      this.previousIndex = index
      this.previousEvent = event
    }
    this.turnStructure?.observe(event, index)
    if (event.type === 'request/header') this.headers?.push(index)
    else if (event.type === 'todo/write' || event.type === 'goal/change') this.states?.push(index)
    this.transcriptRows?.observe(event, index)
  }

  private link(event: LogEvent, index: number): ReplacementLink {
    const before =
      this.previousIndex === index - 1 ? this.previousEvent : index > 0 ? (this.source.eventAt(index - 1) as LogEvent) : undefined
    return (this.compactionIndex as CompactionIndex).link(event, index, before, index - 1)
  }

  /** Build `index` from the records stored so far; from now on it is kept current. */
  private build(index: LogIndex): this {
    switch (index) {
      case 'transcript':
        if (this.transcriptRows === null) this.buildTranscript()
        break
      case 'compactions':
        if (this.compactionIndex === null) this.buildCompactions()
        break
      case 'turns':
        if (this.turnStructure === null) this.buildTurns()
        break
      case 'timing':
        if (this.stepTimes === null) this.buildTiming()
        break
      case 'requests':
        if (this.headers === null) this.buildRequests()
        break
      case 'state':
        if (this.states === null) this.buildState()
        break
    }
    return this
  }

  /** Every stored record whose type passes `wanted` (decided once per type code), in log order. */
  private *records(wanted: (label: string) => boolean): Generator<number> {
    const source = this.source
    const verdicts: (boolean | undefined)[] = []
    for (let r = 0; r < source.recordCount; r++) {
      if (source.isRow(r)) continue
      const code = source.typeCode(r)
      if (code === NOT_AN_OBJECT) continue
      let yes = verdicts[code]
      if (yes === undefined) verdicts[code] = yes = wanted(source.typeLabel(code))
      if (yes) yield r
    }
  }

  private buildTranscript(): void {
    const source = this.source
    const rows = new TranscriptRows()
    for (let r = 0; r < source.recordCount; r++) {
      const first = source.firstIndexOf(r)
      if (source.isRow(r)) {
        rows.observeRun(first, this.nextFirst(r) - first)
        continue
      }
      const code = source.typeCode(r)
      if (code === NOT_AN_OBJECT) continue
      const label = source.typeLabel(code)
      // Only a message event's row depends on more than its type (its surfaceOp).
      rows.observe(MESSAGE_TYPES.has(label) ? (source.event(r) as LogEvent) : ({ type: label } as LogEvent), first)
    }
    this.transcriptRows = rows
  }

  /** The first event index after record `r`'s (a row's end), or the log's length after the last record. */
  private nextFirst(r: number): number {
    const source = this.source
    return r + 1 < source.recordCount ? source.firstIndexOf(r + 1) : source.firstIndexOf(r) + packedRowSize(source.row(r))
  }

  private buildCompactions(): void {
    const source = this.source
    const groups = new CompactionIndex()
    const links: ReplacementLink[] = []
    this.compactionIndex = groups
    const replacements = source.timeline.replacements
    let k = 0
    const linkUpTo = (bound: number): void => {
      for (; k < replacements.length && (replacements[k]?.index ?? Infinity) <= bound; k++) {
        const at = (replacements[k] as { index: number }).index
        const before = at > 0 ? (source.eventAt(at - 1) as LogEvent) : undefined
        links.push(groups.link(source.eventAt(at) as LogEvent, at, before, at - 1))
      }
    }
    for (const r of this.records((label) => label.startsWith('compaction/'))) {
      const first = source.firstIndexOf(r)
      linkUpTo(first)
      groups.observe(source.event(r) as LogEvent, first)
    }
    linkUpTo(Infinity)
    this.links = links
    // The next replacement's link reads the event before it; one not an object, or not kept, is read again.
    this.previousIndex = -1
    this.previousEvent = undefined
  }

  private buildTurns(): void {
    const turns = new TurnStructure()
    for (const r of this.records((label) => TURN_TYPES.has(label)))
      turns.observe(this.source.event(r) as LogEvent, this.source.firstIndexOf(r))
    this.turnStructure = turns
  }

  private buildTiming(): void {
    const source = this.source
    const times = new StepTimesTracker(this.turns)
    const timeline = source.timeline
    let node = 0
    for (let r = 0; r < source.recordCount; r++) {
      const first = source.firstIndexOf(r)
      if (source.isRow(r)) {
        times.observeRow(source.row(r), first, this.nextFirst(r) - first)
        continue
      }
      while (node < timeline.nodeCount && timeline.indexOf(node) < first) node++
      times.observe(source.event(r) as LogEvent, first, node < timeline.nodeCount && timeline.indexOf(node) === first)
    }
    this.stepTimes = times
  }

  private buildRequests(): void {
    const source = this.source
    const headers = new Int32Vector(16)
    for (const r of this.records((label) => label === 'request/header')) headers.push(source.firstIndexOf(r))
    const shapes = new NodeWireShapes()
    const timeline = source.timeline
    for (let node = 0; node < timeline.nodeCount; node++) {
      if (source.nodeDerives(node) !== DeriveOutcome.Message) {
        shapes.push(null, false)
        continue
      }
      const at = timeline.indexOf(node)
      shapes.push(deriveEventMessage(source.eventAt(at) as LogEvent), textMayHoldSurrogate(source.textAt(at)))
    }
    this.headers = headers
    this.shapes = shapes
  }

  private buildState(): void {
    const states = new Int32Vector(16)
    for (const r of this.records((label) => label === 'todo/write' || label === 'goal/change'))
      states.push(this.source.firstIndexOf(r))
    this.states = states
  }
}
