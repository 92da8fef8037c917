/**
 * Test-only kit for the fuzz suites: read bytes through LensLog touching every accessor the worker uses, an
 * independent line oracle (split the plaintext on 0x0A, JSON.parse each line) that says which records must be
 * kept, and a work counter on JSON.parse that turns "no hang, time linear in the bytes" into a count
 * instead of a timing.
 */

// Module paths, not the core's index: the suites should not depend on every export of the core compiling.
import { expandPackedRow, isPackedRowTag, validatePackedRow } from '../core/decode/packed-rows.ts'
import type { ContentChecksum } from '../core/decode/zstd-container.ts'
import type { PackedRow } from '../core/model/log-event.ts'
import { LensLog } from '../core/log/lens-log.ts'

const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

export interface ReadResult {
  readonly log: LensLog
  /** Characters handed to JSON.parse while reading and while every accessor below was asked once per event. */
  readonly parsedChars: number
}

/**
 * Push `bytes` in slices of `slice`, finish, then ask every per-event accessor the worker and CLI use (event,
 * rawEvent, seqOf, lineOf, isPacked, isUpgraded) and the surface at the end. Throws whatever LensLog throws: the
 * property under test is that it throws nothing.
 */
export function readAll(bytes: Uint8Array, checksum: ContentChecksum, slice = 1 << 16, upgradeLegacy = true): ReadResult {
  return countingJsonParse(() => {
    const log = new LensLog({ checksum, upgradeLegacy })
    for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
    log.finish()
    for (let i = 0; i < log.length; i++) {
      log.event(i)
      log.rawEvent(i)
      log.seqOf(i)
      log.lineOf(i)
      log.isPacked(i)
      log.isUpgraded(i)
    }
    const last = log.length - 1
    log.surfaceSeqsAfter(last)
    log.messageCountAfter(last)
    log.replacementsAfter(last)
    log.wouldSynthesize()
    void log.progress
    return log
  })
}

/** Run `fn` with JSON.parse wrapped to count the characters it is handed. */
export function countingJsonParse(fn: () => LensLog): ReadResult {
  const original = JSON.parse
  let parsedChars = 0
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parsedChars += typeof text === 'string' ? text.length : String(text).length
    return original(text, reviver)
  }) as typeof JSON.parse
  try {
    const log = fn()
    return { log, parsedChars }
  } finally {
    JSON.parse = original
  }
}

export interface LineOracle {
  /** Physical lines (the last one without a newline included when non-empty). */
  readonly lines: number
  /** Body lines (after line 1) that JSON.parse accepts. */
  readonly parsableBody: number
  /** Whether line 1 parses to an object with a `seq` or `seq0` (the decoder also keeps it as a record then). */
  readonly firstLooksLikeEvent: boolean
  /** Line 1 as events (a packed row expanded), for when the decoder reads it as a record rather than a header. */
  readonly firstEvents: unknown[]
  /** Events of the body in order, packed rows that validate expanded, rows that do not skipped: what the harness folds. */
  readonly events: unknown[]
}

/** What must be kept from a plaintext, computed without the decoder (the BOM is skipped, as the decoder does). */
export function lineOracle(plaintext: Uint8Array): LineOracle {
  let bytes = plaintext
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
  const pieces: Uint8Array[] = []
  let start = 0
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    pieces.push(bytes.subarray(start, nl))
    start = nl + 1
  }
  if (start < bytes.length) pieces.push(bytes.subarray(start))
  let parsableBody = 0
  let firstLooksLikeEvent = false
  let firstEvents: unknown[] = []
  const events: unknown[] = []
  const asEvents = (value: unknown): unknown[] => {
    if (typeof value === 'object' && value !== null && isPackedRowTag((value as { type?: unknown }).type)) {
      try {
        return expandPackedRow(validatePackedRow(value as Record<string, unknown>, (value as PackedRow).type))
      } catch {
        return [] // An invalid row is a diagnostic, not an event.
      }
    }
    return [value]
  }
  pieces.forEach((piece, i) => {
    let value: unknown
    try {
      value = JSON.parse(lenient.decode(piece))
    } catch {
      return
    }
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value)
    if (i === 0) {
      firstEvents = asEvents(value)
      firstLooksLikeEvent = isObject && ('seq' in (value as object) || 'seq0' in (value as object))
      return
    }
    parsableBody++
    events.push(...asEvents(value))
  })
  return { lines: pieces.length, parsableBody, firstLooksLikeEvent, firstEvents, events }
}

/** Decoded records: what the decoder kept (events and packed rows). */
export function recordsKept(log: LensLog): number {
  return log.progress.records
}

/** Lines that parsed but were refused as records (invalid packed rows). */
export function refusedRows(log: LensLog): number {
  return log.diagnostics.filter((d) => d.code === 'packed-row-invalid').length
}

/** Apply byte-level damage to a copy. */
export type ByteMutation =
  | { readonly kind: 'flip'; readonly at: number; readonly value: number }
  | { readonly kind: 'cut'; readonly at: number; readonly length: number }
  | { readonly kind: 'newline'; readonly at: number }
  | { readonly kind: 'truncate'; readonly at: number }

export function mutateBytes(source: Uint8Array, mutations: readonly ByteMutation[], from = 0): Uint8Array {
  let bytes = source.slice()
  for (const m of mutations) {
    const room = bytes.length - from
    if (room <= 0) break
    const at = from + (m.at % room)
    switch (m.kind) {
      case 'flip':
        bytes[at] = m.value
        break
      case 'newline':
        bytes[at] = 0x0a
        break
      case 'cut': {
        const out = new Uint8Array(bytes.length - Math.min(m.length, bytes.length - at))
        out.set(bytes.subarray(0, at))
        out.set(bytes.subarray(at + Math.min(m.length, bytes.length - at)), at)
        bytes = out
        break
      }
      case 'truncate':
        bytes = bytes.slice(0, at)
        break
    }
  }
  return bytes
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** The strict results a LensLog gives (the harness's answers before its first violation), in the oracle's shape. */
export function strictResults(log: LensLog) {
  const last = log.strictLength - 1
  const first = log.fold.firstViolation
  return {
    nodes: log.surfaceSeqsAfter(last),
    replacements: log
      .replacementsAfter(last)
      .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
    error: first === undefined ? null : { index: first.index, message: first.message },
  }
}
