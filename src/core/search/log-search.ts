/**
 * Full-text search over a LensLog, resumable: `step()` scans a slice of records and returns the matches in it, so
 * the worker streams results and stays interruptible, and a growing (live) log is searched on as it grows.
 *
 * The fast path never parses a record without a hit: a literal query's prefilter (see text-matcher.ts) runs over
 * the decoded text blocks the log already holds, natively, and only records with a hit are parsed and walked for
 * the JSON path of each matching string. Regex mode parses every record (a pattern over escaped JSON is not sound).
 *
 * What is searched: every string value of an event as it is on disk (before legacy upgrades), one match per
 * string (its first occurrence), at most `MAX_MATCHES_PER_EVENT` strings per event.
 *
 * Packed chunk rows stand for many `assistant/chunk` events: each member is searched as the event the harness
 * expands it to, and a match in its delta (`data.chunk.text` / `data.chunk.argumentsDelta`) is that member's seq.
 * The fields every member shares (the event and chunk types, a tool call's id and name) are reported once, at the
 * row's first member: otherwise a search for a call id would list every delta of its arguments. Text split across
 * deltas is not found in the deltas (it is in the assistant message the chunks end in).
 */

import { expandPackedMember } from '../decode/packed-rows.ts'
import { Int32Vector } from '../model/growable-array.ts'
import { countAtMost } from '../model/sorted-search.ts'
import { eventTypeLabel, type PackedRow } from '../model/log-event.ts'
import type { LensLog } from '../log/lens-log.ts'
import { forEachString } from './json-leaves.ts'
import { makeSnippet } from './snippet.ts'
import { surfaceNodeOf, visibleRanges, type IndexRange } from './visible-ranges.ts'
import { OPTIONAL_ESCAPE, REGEX_EVENT_BUDGET_MS, REGEX_MAX_CHARS, type TextMatcher } from './text-matcher.ts'

/** Strings reported per event at most (a huge tool result with the needle in every line stays one or a few rows). */
export const MAX_MATCHES_PER_EVENT = 8

export interface SearchFilters {
  /** Event types to keep (`assistant/chunk` for chunk rows); empty or absent: every type. */
  readonly types?: readonly string[]
  /** Only events inside turn `turn` (by the log's turn brackets); with `step`, inside that step of it. */
  readonly turn?: number
  /** Only events inside steps numbered `step` (of `turn` when given). */
  readonly step?: number
  /** Only events that entered the model surface. */
  readonly surfaceOnly?: boolean
}

export interface SearchMatch {
  /** Event index (= seq for a valid log). */
  readonly index: number
  readonly seq: number | null
  readonly type: string
  /** Where in the event the string lies, as a JSON path (`data.message.content[0].text`). */
  readonly path: string
  readonly snippet: string
  /** The match's [start, end) in `snippet`. */
  readonly highlight: readonly [number, number]
}

export type { IndexRange }

export interface StepLimit {
  /** Stop after this many records (a packed row is one record). */
  readonly maxRecords?: number
  /** Stop once `Date.now()` passes this. */
  readonly deadline?: number
  /** Stop after the record that brings the slice's matches to this many. */
  readonly maxMatches?: number
}

const CHECK_CLOCK_EVERY = 64
/** Strings a packed row's members carry that its stored text does not (`expandPackedMember`). */
const ROW_SYNTHESIZED = ['assistant/chunk', 'text-delta', 'reasoning-delta', 'tool-call-delta']
const NO_HIT = Number.POSITIVE_INFINITY

export class LogSearch {
  /** Matches found so far (strings, capped per event), including those past any caller's cap. */
  total = 0
  /** Events whose strings were not all read (regex mode's per-string and per-event caps). */
  cutEvents = 0
  private record = 0
  private block = -1
  private hitAt = -1
  private escapeAt = -1
  /** Surface nodes of matching events, in entry order. */
  private readonly nodes = new Int32Vector(64)
  private readonly types: ReadonlySet<string> | null
  private ranges: number[] = []
  /** The needle is in a string a row's expansion adds (not in its text): every row must be parsed. */
  private readonly rowsAlways: boolean

  constructor(
    private readonly log: LensLog,
    private readonly matcher: TextMatcher,
    private readonly filters: SearchFilters = {},
  ) {
    this.types = filters.types !== undefined && filters.types.length > 0 ? new Set(filters.types) : null
    this.rowsAlways = ROW_SYNTHESIZED.some((text) => matcher.first(text) !== null)
  }

  /** Whether every record stored so far has been scanned (a live log may grow: call `step` again). */
  get done(): boolean {
    return this.record >= this.log.recordTexts.length
  }

  /** Events covered by the scan so far. */
  get scannedEvents(): number {
    const texts = this.log.recordTexts
    return this.record >= texts.length ? this.log.length : texts.firstIndexOf(this.record)
  }

  /** Scan the next slice; returns the matches found in it, in log order. */
  step(limit: StepLimit = {}): SearchMatch[] {
    const out: SearchMatch[] = []
    const texts = this.log.recordTexts
    this.ranges = this.turnRanges()
    const maxRecords = limit.maxRecords ?? Number.POSITIVE_INFINITY
    const maxMatches = limit.maxMatches ?? Number.POSITIVE_INFINITY
    let work = 0
    while (this.record < texts.length && work < maxRecords && out.length < maxMatches) {
      work++
      if (limit.deadline !== undefined && work % CHECK_CLOCK_EVERY === 0 && Date.now() > limit.deadline) break
      const r = this.record
      if (this.matcher.prefilter !== null && !(this.rowsAlways && texts.isRow(r))) {
        const hit = this.nextHit(r)
        if (texts.endOf(r) <= hit) {
          this.record = this.skipUntil(hit)
          continue
        }
        if (texts.startOf(r) > hit) {
          // A hit between records (the header line): look again from this record on.
          this.hitAt = -1
          this.escapeAt = -1
          continue
        }
      }
      this.record++
      this.searchRecord(r, out)
    }
    return out
  }

  /**
   * When a matching message was on the surface: for each matching event that entered the surface, from its entry
   * to the event before the replacement that shadowed it (or the end of the log), merged. Read from the fold's
   * timeline, so a live log's later replacements are reflected on the next call.
   */
  visible(): IndexRange[] {
    return visibleRanges(this.log, this.nodeList())
  }

  private *nodeList(): Generator<number> {
    for (let k = 0; k < this.nodes.length; k++) yield this.nodes.get(k)
  }

  /** Position of the next prefilter (or optional-escape) hit at or after record `r`'s start in its block. */
  private nextHit(r: number): number {
    const texts = this.log.recordTexts
    const block = texts.blockOf(r)
    const start = texts.startOf(r)
    if (block !== this.block) {
      this.block = block
      this.hitAt = -1
      this.escapeAt = -1
    }
    const text = texts.blockText(block)
    if (this.hitAt !== NO_HIT && this.hitAt < start) {
      const re = this.matcher.prefilter as RegExp
      re.lastIndex = start
      this.hitAt = re.exec(text)?.index ?? NO_HIT
    }
    if (this.escapeAt !== NO_HIT && this.escapeAt < start) {
      ESCAPE.lastIndex = start
      this.escapeAt = ESCAPE.exec(text)?.index ?? NO_HIT
    }
    return Math.min(this.hitAt, this.escapeAt)
  }

  /**
   * The next record that may hold a match: the first of the current block whose text ends after `hit` (the first
   * of the next block when there is no hit), or an earlier packed row when rows must always be searched.
   */
  private skipUntil(hit: number): number {
    const texts = this.log.recordTexts
    const block = texts.blockOf(this.record)
    let r = this.record
    while (r < texts.length && texts.blockOf(r) === block && texts.endOf(r) <= hit && !(this.rowsAlways && texts.isRow(r))) r++
    return r
  }

  /** Sorted [start, end] index pairs the turn/step filter admits, or [] when there is no such filter. */
  private turnRanges(): number[] {
    const { turn, step } = this.filters
    if (turn === undefined && step === undefined) return []
    const out: number[] = []
    const turns = this.log.turns.turns
    for (const [k, t] of turns.entries()) {
      if (turn !== undefined && t.turn !== turn) continue
      // A turn left open by a later turn/start ends before it, so the pairs stay sorted and disjoint.
      const turnEnd = t.end ?? (turns[k + 1]?.start ?? Number.MAX_SAFE_INTEGER + 1) - 1
      if (step === undefined) out.push(t.start, turnEnd)
      else {
        for (const [j, s] of t.steps.entries()) {
          if (s.step === step) out.push(s.start, s.end ?? (t.steps[j + 1] === undefined ? turnEnd : t.steps[j + 1]!.start - 1))
        }
      }
    }
    // An impossible range keeps "nothing admitted" distinct from "no filter".
    return out.length === 0 ? [-1, -2] : out
  }

  private admits(index: number): boolean {
    if (this.ranges.length === 0) return true
    // Pairs are sorted and disjoint: `index` is admitted when it lies after an odd number of bounds (past a start,
    // before its end) or sits exactly on an end.
    const count = countAtMost(this.ranges, index, this.ranges.length)
    return count % 2 === 1 || (count > 0 && this.ranges[count - 1] === index)
  }

  private admitsSpan(first: number, end: number): boolean {
    if (this.ranges.length === 0) return true
    for (let k = 0; k < this.ranges.length; k += 2) {
      if ((this.ranges[k] as number) < end && (this.ranges[k + 1] as number) >= first) return true
    }
    return false
  }

  private searchRecord(r: number, out: SearchMatch[]): void {
    const texts = this.log.recordTexts
    const first = texts.firstIndexOf(r)
    if (texts.isRow(r)) {
      if (this.filters.surfaceOnly === true || (this.types !== null && !this.types.has('assistant/chunk'))) return
      const end = r + 1 < texts.length ? texts.firstIndexOf(r + 1) : this.log.length
      if (!this.admitsSpan(first, end)) return
      this.searchRow(JSON.parse(texts.text(r)) as PackedRow, first, out)
      return
    }
    if (!this.admits(first)) return
    let event: unknown
    try {
      event = JSON.parse(texts.text(r))
    } catch {
      return
    }
    const record = typeof event === 'object' && event !== null ? (event as { type?: unknown; seq?: unknown }) : {}
    const type = eventTypeLabel(record.type)
    if (this.types !== null && !this.types.has(type)) return
    const seq = typeof record.seq === 'number' ? record.seq : null
    const node = seq === null ? -1 : this.nodeOf(seq, first)
    if (this.filters.surfaceOnly === true && node === -1) return
    const found = this.searchValue(event, '', first, seq, type, out)
    if (found > 0 && node !== -1) this.nodes.push(node)
  }

  private searchRow(row: PackedRow, first: number, out: SearchMatch[]): void {
    const payload = (row.type === 'tool-call-chunks' ? row.data.args : row.data.texts) as readonly string[]
    const payloadPath = row.type === 'tool-call-chunks' ? 'data.chunk.argumentsDelta' : 'data.chunk.text'
    for (let k = 0; k < payload.length; k++) {
      const index = first + k
      if (!this.admits(index)) continue
      const seq = row.seq0 + k
      if (k === 0) {
        this.searchValue(expandPackedMember(row, 0), '', index, seq, 'assistant/chunk', out)
        continue
      }
      const text = payload[k] as string
      const match = this.matcher.first(text)
      if (this.matcher.regex && text.length > REGEX_MAX_CHARS) this.cutEvents++
      if (match === null) continue
      this.total++
      const snippet = makeSnippet(text, match.start, match.end)
      out.push({ index, seq, type: 'assistant/chunk', path: payloadPath, snippet: snippet.text, highlight: snippet.highlight })
    }
  }

  /** Search the strings of one event; returns how many matched (capped). */
  private searchValue(value: unknown, root: string, index: number, seq: number | null, type: string, out: SearchMatch[]): number {
    let found = 0
    const regex = this.matcher.regex
    const startedAt = regex ? Date.now() : 0
    let cut = false
    forEachString(value, root, (text, path) => {
      if (regex && (text.length > REGEX_MAX_CHARS || Date.now() - startedAt > REGEX_EVENT_BUDGET_MS)) cut = true
      if (regex && Date.now() - startedAt > REGEX_EVENT_BUDGET_MS) return false
      const match = this.matcher.first(text)
      if (match === null) return true
      found++
      const snippet = makeSnippet(text, match.start, match.end)
      out.push({ index, seq, type, path, snippet: snippet.text, highlight: snippet.highlight })
      return found < MAX_MATCHES_PER_EVENT
    })
    if (cut) this.cutEvents++
    this.total += found
    return found
  }

  /** The surface node event `index` entered as, or -1. */
  private nodeOf(seq: number, index: number): number {
    return surfaceNodeOf(this.log, seq, index)
  }
}

const ESCAPE = new RegExp(OPTIONAL_ESCAPE.source, 'g')
