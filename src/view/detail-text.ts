/**
 * The inspector's long texts (an event's JSON as the harness reads it, and on disk for an upgraded legacy event),
 * served in pieces: the detail carries the first part, the `detail-text` query the rest on demand. A 10 MB tool
 * result then costs the main thread only what the user asks to see, never one 10 MB text node.
 *
 * Stringifying a 10 MB event takes tens of milliseconds, so the last few texts are kept: every "Show more" and
 * "Copy full value" after the first reads the same string. Hidden-character counts cover the whole value (the
 * main thread only holds the part it shows).
 */

import type { LensLog } from '../core/index.ts'
import { countHidden, type HiddenCounts } from '../core/text/hidden-chars.ts'
import { safeStringify } from './safe-json.ts'
import type { DetailTextChunk, DetailTextField } from '../protocol/event-views.ts'

/** Texts kept: the raw and on-disk JSON of the selected event, and one more for a quick reselect. */
const CACHED_TEXTS = 3

interface Entry {
  readonly log: LensLog
  readonly index: number
  readonly field: DetailTextField
  readonly text: string
  hidden: HiddenCounts | null
}

export class DetailTexts {
  private readonly entries: Entry[] = []

  /** The whole text, or null when the event does not exist (or has no on-disk shape). */
  text(log: LensLog, index: number, field: DetailTextField): string | null {
    return this.entry(log, index, field)?.text ?? null
  }

  /** `length` characters of the text from `offset` (clamped), with the whole text's facts. */
  chunk(log: LensLog, index: number, field: DetailTextField, offset: number, length: number): DetailTextChunk | null {
    const entry = this.entry(log, index, field)
    if (entry === null) return null
    const text = entry.text
    const start = Math.max(0, Math.min(Math.trunc(offset), text.length))
    let end = Math.max(start, Math.min(text.length, start + Math.max(0, Math.trunc(length))))
    // Never end between the halves of a surrogate pair (the next piece would start with a lone low half): end
    // before the pair, or after it when the piece would otherwise be empty.
    if (end < text.length && end > start && isHighSurrogate(text.charCodeAt(end - 1))) end += end - 1 > start ? -1 : 1
    entry.hidden ??= countHidden(text)
    return { offset: start, end, text: text.slice(start, end), total: text.length, hidden: entry.hidden }
  }

  private entry(log: LensLog, index: number, field: DetailTextField): Entry | null {
    const found = this.entries.findIndex((e) => e.log === log && e.index === index && e.field === field)
    if (found !== -1) {
      const [hit] = this.entries.splice(found, 1)
      if (hit !== undefined) this.entries.unshift(hit)
      return hit ?? null
    }
    const text = stringifyField(log, index, field)
    if (text === null) return null
    // A new log drops everything kept from the old one (entries hold their log alive).
    for (let k = this.entries.length - 1; k >= 0; k--) if (this.entries[k]?.log !== log) this.entries.splice(k, 1)
    const entry: Entry = { log, index, field, text, hidden: null }
    this.entries.unshift(entry)
    this.entries.length = Math.min(this.entries.length, CACHED_TEXTS)
    return entry
  }
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

function stringifyField(log: LensLog, index: number, field: DetailTextField): string | null {
  if (index < 0 || index >= log.length) return null
  if (field === 'disk') {
    if (!log.isUpgraded(index)) return null
    const raw = log.rawEvent(index)
    return raw === undefined ? null : (safeStringify(raw, 2) ?? String(raw))
  }
  const event = log.event(index)
  if (event === undefined) return null
  return safeStringify(event, 2) ?? String(event)
}
