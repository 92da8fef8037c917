/**
 * The cost facts of a log read line by line, without folding it: what `dsh-lens usage` reads of every session in a
 * home, and what the sessions home's background scan can keep per file. It follows the rules the LensLog's own
 * trackers follow (turn and step spans as `TurnStructure`, request points, times and usage as `StepTimesTracker`,
 * replacements as the fold places them, compaction links as `CompactionIndex`) and hands the same raw material to
 * `buildCostFacts`, so a session costs the same here as in `dsh-lens cost` (tests compare the two on every fixture,
 * generated and real-harness log).
 *
 * Cheap on purpose: most records are recognized from their first characters (the harness writes `type`, `seq`, `time`
 * first and `surfaceOp` last) and never parsed; only the few types cost reads (step and turn brackets, assistant
 * messages, headers, compaction events, usage chunks, replacements) go through `JSON.parse`. A record the peek does
 * not recognize is parsed. The state is plain data (`state()` / `CostDigestCollector.resume`), so a log that grows is
 * read on from where the last read stopped, even in another process.
 */

import { isPackedRowTag } from '../decode/packed-rows.ts'
import { isRecord } from '../model/log-event.ts'
import { canonicalHeader } from '../request/request-header.ts'
import { clockTime } from '../timing/step-times.ts'
import {
  buildCostFacts,
  tokenCountsOf,
  type CostFacts,
  type CostSource,
  type RawUsage,
  type SourceReplacement,
  type SourceStep,
  type SummaryFact,
  type UsageChunk,
} from './cost-facts.ts'
import { headerFingerprint, type HeaderFingerprint } from './header-fingerprint.ts'

/** What the first line says of the session. */
export interface DigestHeader {
  readonly id: string | null
  readonly parentSession: string | null
  readonly origin: string | null
  readonly cwd: string | null
  readonly createdAt: number | null
  readonly seedLength: number
}

/** A step as the timing tracker keeps it, and whether its first `assistant/message` came (`messageIndex >= 0`). */
type MutableStep = { -readonly [K in keyof SourceStep]: SourceStep[K] } & { retries: number[]; messaged: boolean }

interface Announcement {
  readonly index: number
  readonly removed: number | null
}

export interface CostDigestState {
  readonly version: 1
  header: DigestHeader | null
  /** Events so far (a packed row counts its members): the next event's index. */
  events: number
  lastSeq: number
  lastTime: number | null
  previousType: string | null
  turn: { turn: number; steps: number[] } | null
  steps: MutableStep[]
  /** Ordinals of steps still waiting for something (the timing tracker's `open`). */
  open: number[]
  /** The current surface's node seqs, in model order (appends and replaces as the fold places them). */
  surface: number[]
  headers: { index: number; fingerprint: HeaderFingerprint | null }[]
  replacements: SourceReplacement[]
  usageChunks: UsageChunk[]
  /** compactionId -> its latest `compaction/summary`. */
  summaries: [string, SummaryFact & { index: number; removed: number | null }][]
  prune: Announcement | null
  skipped: number
}

/** `{"type":"<type>","seq":<n>,"time":<t>` (or a packed row's `seq0` / `time0`): the harness's key order. */
const PEEK = /^\{"type":"([A-Za-z0-9/_-]{1,64})","seq(0?)":(\d{1,15}),"time0?":(\d{1,16})[,}]/
/** `,"dt":[…]` in a packed row (see session-digest.ts: the first one is `data.dt`). */
const DT = /,"dt":\[(-?\d{1,16}(?:,-?\d{1,16})*)?\]/
/** The envelope's last key, as the harness writes it. */
const APPEND_TAIL = /,"surfaceOp":"append"\}$/
const REPLACE_TAIL = /"surfaceOp":\{"op":"replace",/

/**
 * An `assistant/message` as the harness (and the generator) writes it: `data` opens the body and ends with a flat
 * `usage` of counts, then the envelope's `sourceEventSeqs` and the append. Only then its usage is read from the tail
 * and the message (its content, the bulk of the line) is not parsed.
 */
const MESSAGE_DATA = ',"data":{"turn":'
const MESSAGE_USAGE =
  /"usage":(\{"[A-Za-z]{1,40}":\d{1,15}(?:,"[A-Za-z]{1,40}":\d{1,15}){0,15}\})\},"sourceEventSeqs":\[[\d,]*\],"surfaceOp":"append"\}$/y

/** Types whose data cost reads: parsed whenever they appear. */
const READ = new Set([
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'assistant/message',
  'request/header',
  'compaction/summary',
  'compaction/prune',
  'llm/retry',
])
const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])

/** The numbers in a comma-separated list of integers (as the DT pattern matched it). */
function countOf(list: string): number {
  let n = 1
  for (let i = 0; i < list.length; i++) if (list.charCodeAt(i) === 44) n++
  return n
}

/** Their sum. */
function sumOf(list: string): number {
  let sum = 0
  let value = 0
  let sign = 1
  for (let i = 0; i <= list.length; i++) {
    const c = i === list.length ? 44 : list.charCodeAt(i)
    if (c === 44) {
      sum += sign * value
      value = 0
      sign = 1
    } else if (c === 45) sign = -1
    else value = value * 10 + (c - 48)
  }
  return sum
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const safeCount = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null)

function rawUsage(usage: Record<string, unknown>): RawUsage {
  return {
    inputTokens: numberOrNull(usage['inputTokens']),
    outputTokens: numberOrNull(usage['outputTokens']),
    cacheReadTokens: numberOrNull(usage['cacheReadTokens']),
    cacheWriteTokens: numberOrNull(usage['cacheWriteTokens']),
  }
}

export class CostDigestCollector {
  private readonly s: CostDigestState

  constructor(state?: CostDigestState) {
    this.s = state ?? {
      version: 1,
      header: null,
      events: 0,
      lastSeq: -1,
      lastTime: null,
      previousType: null,
      turn: null,
      steps: [],
      open: [],
      surface: [],
      headers: [],
      replacements: [],
      usageChunks: [],
      summaries: [],
      prune: null,
      skipped: 0,
    }
  }

  /** A collector that reads on from a state `state()` returned (a copy is taken: the caller's stays as it was). */
  static resume(state: CostDigestState): CostDigestCollector {
    return new CostDigestCollector(JSON.parse(JSON.stringify(state)) as CostDigestState)
  }

  /** The plain-data state, to keep and resume from. */
  state(): CostDigestState {
    return this.s
  }

  /** The log's first line (the session header). */
  observeHeader(textLine: string): void {
    let value: unknown
    try {
      value = JSON.parse(textLine)
    } catch {
      return
    }
    if (!isRecord(value)) return
    const seed = value['seedLength']
    this.s.header = {
      id: text(value['id']),
      parentSession: text(value['parentSession']),
      origin: text(value['origin']),
      cwd: text(value['cwd']),
      createdAt: numberOrNull(value['createdAt']),
      seedLength: typeof seed === 'number' && Number.isSafeInteger(seed) && seed > 0 ? seed : 0,
    }
  }

  /** One body record's text (a JSONL line without its newline). */
  observeLine(line: string): void {
    const peek = PEEK.exec(line.length > 240 ? line.slice(0, 240) : line)
    if (peek !== null) {
      const type = peek[1] as string
      const seq = Number(peek[3])
      const time = Number(peek[4])
      if (peek[2] === '0') {
        const dt = isPackedRowTag(type) ? DT.exec(line) : null
        if (dt !== null) {
          const gaps = dt[1]
          this.observeRow(seq, time, gaps === undefined ? 0 : countOf(gaps), gaps === undefined ? 0 : sumOf(gaps))
          return
        }
      } else if (!READ.has(type) && !(type === 'assistant/chunk' && line.includes('"type":"usage"'))) {
        if (!SURFACE_TYPES.has(type) || !REPLACE_TAIL.test(line.slice(-200))) {
          // A surface event's envelope ends with its surfaceOp: an append is all a light event needs to carry.
          const append = SURFACE_TYPES.has(type) && APPEND_TAIL.test(line.slice(-40))
          this.observeEvent(append ? { type, seq, time, surfaceOp: 'append' } : { type, seq, time }, append)
          return
        }
      }
    }
    if (peek?.[1] === 'assistant/message' && this.messageUsageOnly(line, peek[0].length - 1, Number(peek[3]), Number(peek[4])))
      return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      this.s.skipped++
      return
    }
    this.observeRecord(value)
  }

  /**
   * An `assistant/message` read from its envelope and the usage at its tail, when that is all cost needs of it: the
   * steps it is the first message of have a header in force that names the provider and model (else its `source`
   * is read, and the line parsed).
   */
  private messageUsageOnly(line: string, afterPeek: number, seq: number, time: number): boolean {
    if (!line.startsWith(MESSAGE_DATA, afterPeek)) return false
    const at = line.lastIndexOf('"usage":{')
    if (at < 0) return false
    MESSAGE_USAGE.lastIndex = at
    const usage = MESSAGE_USAGE.exec(line)?.[1]
    if (usage === undefined) return false
    const s = this.s
    for (const ordinal of s.open) {
      const step = s.steps[ordinal] as MutableStep
      if (step.messaged) continue
      const request = (step.firstOutputIndex >= 0 ? step.firstOutputIndex : s.events) - 1
      let header: HeaderFingerprint | null = null
      for (let i = s.headers.length - 1; i >= 0; i--)
        if ((s.headers[i] as { index: number }).index <= request) {
          header = (s.headers[i] as { fingerprint: HeaderFingerprint | null }).fingerprint
          break
        }
      if (header?.provider == null || header.model == null) return false
    }
    this.observeEvent(
      { type: 'assistant/message', seq, time, data: { usage: JSON.parse(usage) as unknown }, surfaceOp: 'append' },
      true,
    )
    return true
  }

  /** One parsed body record (an event or a packed row). */
  observeRecord(value: unknown): void {
    if (isRecord(value) && isPackedRowTag(value['type'])) {
      const data = value['data']
      const dt = isRecord(data) && Array.isArray(data['dt']) ? (data['dt'] as unknown[]) : null
      const members = isRecord(data) ? (value['type'] === 'tool-call-chunks' ? data['args'] : data['texts']) : undefined
      if (typeof value['seq0'] !== 'number' || !Array.isArray(members) || dt === null) {
        this.s.skipped++
        return
      }
      this.observeRow(
        value['seq0'],
        value['time0'],
        dt.length,
        dt.reduce((sum: number, d) => sum + (typeof d === 'number' ? d : 0), 0),
      )
      return
    }
    if (!isRecord(value)) {
      this.s.events++
      this.s.lastTime = null
      this.s.previousType = null
      return
    }
    const op = value['surfaceOp']
    const node = SURFACE_TYPES.has(value['type'] as string) && (op === 'append' || (isRecord(op) && op['op'] === 'replace'))
    this.observeEvent(value, node)
  }

  /** A packed row of `gaps + 1` chunks, its last `span` ms after its first. */
  private observeRow(seq0: number, time0: unknown, gaps: number, span: number): void {
    const index = this.s.events
    const size = gaps + 1
    this.output(index, clockTime(time0))
    const time = (typeof time0 === 'number' ? time0 : 0) + span
    this.s.events += size
    this.s.lastTime = clockTime(time)
    this.s.lastSeq = seq0 + size - 1
    this.s.previousType = 'assistant/chunk'
  }

  private observeEvent(event: Record<string, unknown>, node: boolean): void {
    const s = this.s
    const index = s.events++
    const type = event['type']
    const seq = typeof event['seq'] === 'number' ? event['seq'] : index
    const time = clockTime(event['time'])
    const data = isRecord(event['data']) ? event['data'] : undefined
    if (node) this.surface(event, index, seq)
    switch (type) {
      case 'turn/start':
        s.turn = { turn: typeof data?.['turn'] === 'number' ? data['turn'] : -1, steps: [] }
        break
      case 'turn/end': {
        const last = s.turn?.steps.at(-1)
        if (last !== undefined && (s.steps[last] as MutableStep).end === null) this.end(last, index, seq)
        s.turn = null
        break
      }
      case 'step/start':
        if (s.turn !== null) {
          s.turn.steps.push(s.steps.length)
          s.open.push(s.steps.length)
          s.steps.push({
            turn: s.turn.turn,
            step: typeof data?.['step'] === 'number' ? data['step'] : -1,
            start: index,
            end: null,
            firstOutputIndex: -1,
            firstOutputTime: null,
            requestTime: null,
            messageTime: null,
            endTime: null,
            usage: null,
            reasoning: null,
            retries: [],
            source: null,
            requestSeq: null,
            endSeq: null,
            messaged: false,
          })
        }
        break
      case 'step/end': {
        const last = s.turn?.steps.at(-1)
        if (last !== undefined && (s.steps[last] as MutableStep).end === null) this.end(last, index, seq)
        break
      }
      case 'assistant/chunk': {
        this.output(index, time)
        const chunk = data?.['chunk']
        if (isRecord(chunk) && chunk['type'] === 'usage') {
          const usage = tokenCountsOf(chunk['usage'])
          if (usage !== null) s.usageChunks.push({ index, usage })
        }
        break
      }
      case 'assistant/message':
        this.output(index, time)
        this.message(index, time, data, node)
        break
      case 'llm/retry': {
        const latest = s.steps.length - 1
        if (latest >= 0 && (s.steps[latest] as MutableStep).end === null) (s.steps[latest] as MutableStep).retries.push(index)
        break
      }
      case 'request/header':
        s.headers.push({ index, fingerprint: headerFingerprint(canonicalHeader(data)) })
        break
      case 'compaction/summary': {
        const id = data?.['compactionId']
        if (typeof id !== 'string') break
        const summary = {
          index,
          seq,
          compactionId: id,
          turn: s.turn?.turn ?? null,
          at: clockTime(event['time']),
          provider: text(data?.['provider']),
          model: text(data?.['model']),
          usage: tokenCountsOf(data?.['usage']),
          removed: safeCount(data?.['shadowedTokenCount']),
        }
        const at = s.summaries.findIndex(([key]) => key === id)
        if (at >= 0) s.summaries[at] = [id, summary]
        else s.summaries.push([id, summary])
        break
      }
      default:
        break
    }
    s.prune = type === 'compaction/prune' ? { index, removed: safeCount(data?.['shadowedTokenCount']) } : null
    this.closeEnded(index, time)
    s.lastTime = time
    s.lastSeq = seq
    s.previousType = typeof type === 'string' ? type : null
  }

  /** An append or a replace, as the fold places it; a replace whose range is not on the surface is no node. */
  private surface(event: Record<string, unknown>, index: number, seq: number): void {
    const s = this.s
    const op = event['surfaceOp']
    if (op === 'append') {
      s.surface.push(seq)
      return
    }
    if (!isRecord(op)) return
    // `start` and `end` name the first and last live nodes it replaces by seq (the fold's checks 9-11).
    const first = s.surface.indexOf(op['start'] as number)
    const last = s.surface.indexOf(op['end'] as number)
    if (first < 0 || last < first) return
    const shadowed = s.surface.splice(first, last - first + 1, seq)
    const data = isRecord(event['data']) ? event['data'] : undefined
    const source = isRecord(data?.['source']) ? data['source'] : undefined
    const id = source?.['compactionId']
    let kind: SourceReplacement['kind'] = 'other'
    let removed: number | null = null
    if (event['type'] === 'user/message' && (source?.['plugin'] === 'compact' || typeof id === 'string')) {
      kind = 'summary'
      const summary = typeof id === 'string' ? s.summaries.find(([key]) => key === id)?.[1] : undefined
      removed = summary !== undefined && summary.index < index ? summary.removed : null
    } else if (event['type'] === 'tool/result' && s.previousType === 'compaction/prune') {
      kind = 'prune'
      removed = s.prune?.index === index - 1 ? s.prune.removed : null
    }
    s.replacements.push({ index, seq, minShadowedSeq: Math.min(...shadowed), kind, removed })
  }

  private message(index: number, time: number | null, data: Record<string, unknown> | undefined, node: boolean): void {
    const s = this.s
    const usage = node && isRecord(data?.['usage']) ? data['usage'] : null
    const message = data?.['message']
    const from = isRecord(message) && isRecord(message['source']) ? message['source'] : undefined
    for (const ordinal of s.open) {
      const step = s.steps[ordinal] as MutableStep
      if (!step.messaged) {
        step.messaged = true
        step.messageTime = time
        step.source = from === undefined ? null : { provider: text(from['provider']), model: text(from['model']) }
      }
      if (usage !== null && step.usage === null) {
        step.usage = rawUsage(usage)
        step.reasoning = tokenCountsOf(usage)?.reasoning ?? null
      }
    }
  }

  /** The first provider output of every open step still waiting for one: its request point is the event before. */
  private output(index: number, time: number | null): void {
    const s = this.s
    for (const ordinal of s.open) {
      const step = s.steps[ordinal] as MutableStep
      if (step.firstOutputIndex >= 0) continue
      step.firstOutputIndex = index
      step.firstOutputTime = time
      step.requestTime = s.lastTime
      step.requestSeq = index > 0 ? s.lastSeq : null
    }
  }

  private end(ordinal: number, index: number, seq: number): void {
    const step = this.s.steps[ordinal] as MutableStep
    step.end = index
    step.endSeq = seq
  }

  /** As the timing tracker: note the end time of steps this event closed, and stop watching what needs nothing more. */
  private closeEnded(index: number, time: number | null): void {
    const s = this.s
    if (s.open.length === 0) return
    const latest = s.steps.length - 1
    const stays = (ordinal: number): boolean => {
      const step = s.steps[ordinal] as MutableStep
      if (step.end === index) step.endTime = time
      if (step.end !== null) return false
      return ordinal === latest || step.firstOutputIndex < 0 || !step.messaged || step.usage === null
    }
    // Nearly every event closes nothing: the list is rebuilt only when one does (this runs once an event).
    for (let i = 0; i < s.open.length; i++)
      if (!stays(s.open[i] as number)) {
        s.open = [...s.open.slice(0, i), ...s.open.slice(i + 1).filter(stays)]
        return
      }
  }

  /** The session header as read, or null before it. */
  header(): DigestHeader | null {
    return this.s.header
  }

  /** Body lines that were not a readable record. */
  get skippedLines(): number {
    return this.s.skipped
  }

  /** The raw material of the cost, as `costSourceOfLog` gives it for a loaded log. */
  source(): CostSource {
    const s = this.s
    return {
      steps: s.steps.map(({ messaged: _, ...step }) => step),
      headers: s.headers,
      replacements: s.replacements,
      usageChunks: s.usageChunks,
      summaries: s.summaries.map(([, { removed: _, ...summary }]) => summary).sort((a, b) => a.index - b.index),
      seedLength: s.header?.seedLength ?? 0,
      lastIndex: s.events - 1,
      lastSeq: s.lastSeq,
      lastTime: s.lastTime,
    }
  }

  facts(): CostFacts {
    return buildCostFacts(this.source())
  }
}
