/**
 * A redacted copy of a log: the same session (the same events, seqs, types, surface operations and fold, packed rows
 * still packed, zstd still zstd frame for frame), in which every secret a scan found is replaced, in every encoding
 * it is written in, by `[REDACTED:<kind>:<hash>]` (equal secrets, equal placeholders, so every equality the fold
 * checks between events still holds), and optionally home paths and user names.
 *
 * Only text changes, line by line:
 * - a delta stream (`assistant/chunk` deltas, packed rows) is rewritten as a whole: a secret split across deltas
 *   becomes one placeholder in the delta where it started, and the deltas it spanned lose its characters;
 * - any other record has each escaped form of each secret replaced in its text (the placeholder is plain ASCII, the
 *   same at every depth of JSON), then is parsed again and checked: no string, and no string's JSON-unescaped
 *   view, may still hold a secret; should one (an escape the writer chose, `\/`), the record is rewritten from its
 *   parsed strings instead, and checked again; a secret that survives that is an error, never an output;
 * - lines that are no event (a damaged line) are read by the detectors as plain text and cleaned the same way.
 */

import type { LensLog } from '../log/lens-log.ts'
import { ZstdContainer, hasZstdMagic, type ContentChecksum, type FrameDecompressor } from '../decode/zstd-container.ts'
import { forEachString } from '../search/json-leaves.ts'
import { readStreams, type DeltaStream } from '../secrets/delta-streams.ts'
import { escapedForms, unescapeJsonText } from '../secrets/escapes.ts'
import type { SecretScan, SecretValue } from '../secrets/log-secrets.ts'
import { placeholder } from '../secrets/secret-hash.ts'
import { secretsInString } from '../secrets/string-secrets.ts'
import { secretHash } from '../secrets/secret-hash.ts'
import { homePathRules, type PathRule } from './home-paths.ts'

export interface RedactOptions {
  /** Hashes (`secrets --json`'s `hash`) of values to keep. */
  readonly allow?: ReadonlySet<string>
  /** Also replace user names in home directories (`/home/alice` → `/home/user`) and the user names they name. */
  readonly redactPaths?: boolean
  /** zstd input: how each frame's new plaintext is written (`rawZstdFrame`, or a real compressor). */
  readonly encodeFrame?: (plaintext: Uint8Array) => Uint8Array
  /** zstd input: how frames are read (default: the core's libzstd/fzstd decompressor). */
  readonly decompressFrame?: FrameDecompressor
  readonly checksum?: ContentChecksum
}

export interface RedactedLog {
  readonly bytes: Uint8Array
  readonly encoding: 'jsonl' | 'zstd'
  /** Secret occurrences replaced (each escaped form counted where it stood). */
  readonly redactions: number
  /** Home paths and user names replaced (with `redactPaths`). */
  readonly paths: number
  /** Distinct secrets replaced, and distinct secrets kept by the allow list. */
  readonly secrets: number
  readonly allowed: number
  /** Lines whose text changed. */
  readonly lines: number
}

export class RedactionError extends Error {}

interface Replacement {
  readonly forms: readonly string[]
  readonly value: string
  readonly with: string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function redactLog(bytes: Uint8Array, log: LensLog, scan: SecretScan, options: RedactOptions = {}): RedactedLog {
  const allow = options.allow ?? new Set<string>()
  const values = scan.valuesToRedact(allow)
  const replacements: Replacement[] = values.map((v) => ({
    forms: escapedForms(v.value),
    value: v.value,
    with: placeholder(v.kind, v.hash),
  }))
  const paths = options.redactPaths === true ? homePathRules(log) : []
  const state = { redactions: 0, paths: 0, extra: new Map<string, SecretValue>() }
  const edits = lineEdits(log, replacements, paths, state)
  const lineText = (line: number, text: string): string => {
    const edited = edits.get(line)
    if (edited !== undefined) return edited
    // The header and lines that are no event: plain text to the detectors, then the same replacements.
    if (log.recordTexts.length === 0 || !recordLines(log).has(line)) return cleanRawLine(text, replacements, paths, state, allow)
    return text
  }
  let changed = 0
  const rewrite = (text: string, firstLine: number): { text: string; lines: number } => {
    const parts = text.split('\n')
    for (let k = 0; k < parts.length; k++) {
      // The last piece after a final newline is empty: no line.
      if (k === parts.length - 1 && parts[k] === '') break
      const line = firstLine + k
      const original = parts[k] as string
      const cr = original.endsWith('\r') ? '\r' : ''
      const next = lineText(line, cr === '' ? original : original.slice(0, -1)) + cr
      if (next !== original) {
        parts[k] = next
        changed++
      }
    }
    return { text: parts.join('\n'), lines: parts.length - 1 }
  }
  let out: Uint8Array
  let encoding: 'jsonl' | 'zstd'
  if (hasZstdMagic(bytes)) {
    encoding = 'zstd'
    const encode = options.encodeFrame
    if (encode === undefined) throw new RedactionError('a zstd log needs a frame encoder to be written')
    const frames: Uint8Array[] = []
    // Lines are numbered across frames; a line that spans a frame boundary moves whole into the next frame.
    let line = 1
    let carry = ''
    const plaintexts: string[] = []
    const offsets: number[] = []
    const keep = (plaintext: Uint8Array, _index: number, offset: number): void => {
      plaintexts.push(decoder.decode(plaintext))
      offsets.push(offset)
    }
    const sink = { frame: keep, tornFrame: keep, diagnostic: () => undefined }
    const container = new ZstdContainer(sink, options.checksum, options.decompressFrame)
    container.push(bytes)
    container.finish()
    for (const [k, plaintext] of plaintexts.entries()) {
      const text = carry + plaintext
      const cut = k === plaintexts.length - 1 ? text.length : text.lastIndexOf('\n') + 1
      carry = text.slice(cut)
      const { text: body, lines } = rewrite(text.slice(0, cut), line)
      line += lines
      // A frame whose text is unchanged is copied as it was (compressed as the harness wrote it).
      const whole = body === plaintext && cut === text.length && text === plaintext
      const end = offsets[k + 1] ?? bytes.length
      frames.push(whole && k < plaintexts.length ? bytes.subarray(offsets[k] as number, end) : encode(encoder.encode(body)))
    }
    out = concat(frames)
  } else {
    encoding = 'jsonl'
    out = encoder.encode(rewrite(decoder.decode(bytes), 1).text)
  }
  return {
    bytes: out,
    encoding,
    redactions: state.redactions,
    paths: state.paths,
    secrets: values.length + state.extra.size,
    allowed: scan.distinct.filter((d) => allow.has(d.hash)).length,
    lines: changed,
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const lineSets = new WeakMap<LensLog, Set<number>>()

/** Physical lines that hold a record (everything else is the header or a line that is no event). */
function recordLines(log: LensLog): Set<number> {
  let set = lineSets.get(log)
  if (set === undefined) {
    set = new Set<number>()
    for (let r = 0; r < log.recordTexts.length; r++) set.add(log.recordTexts.lineOf(r))
    lineSets.set(log, set)
  }
  return set
}

interface Counters {
  redactions: number
  paths: number
  extra: Map<string, SecretValue>
}

/** The new text of every record line that changes. */
function lineEdits(
  log: LensLog,
  replacements: readonly Replacement[],
  paths: readonly PathRule[],
  state: Counters,
): Map<number, string> {
  const texts = log.recordTexts
  const current = new Map<number, string>()
  const textOf = (r: number): string => current.get(r) ?? texts.text(r)
  // 1. Streams, in every step whose text holds a secret (the scan read exactly those; read them again here).
  if (replacements.length > 0) {
    for (const step of log.timing.steps) {
      const span = step.span
      const end = span.end ?? log.length - 1
      for (const stream of readStreams(log, span.start, end)) rewriteStream(stream, replacements, current, textOf, state)
    }
  }
  // 2. Every record whose text holds an escaped form of a secret, or a path.
  const touched = new Set<number>(current.keys())
  for (let r = 0, block = -1; r < texts.length; r++) {
    if (texts.blockOf(r) === block) continue
    block = texts.blockOf(r)
    const text = texts.blockText(block)
    const needles = [...replacements.flatMap((x) => x.forms), ...paths.flatMap((p) => p.needles)]
    if (!needles.some((n) => text.includes(n))) continue
    for (let q = r; q < texts.length && texts.blockOf(q) === block; q++) {
      const t = textOf(q)
      if (needles.some((n) => t.includes(n))) touched.add(q)
    }
  }
  const edits = new Map<number, string>()
  for (const r of [...touched].sort((a, b) => a - b)) {
    const next = cleanRecord(textOf(r), replacements, paths, state)
    if (next !== texts.text(r)) edits.set(texts.lineOf(r), next)
  }
  return edits
}

/** Replace every secret in a stream's concatenated text, and hand each delta its new text. */
function rewriteStream(
  stream: DeltaStream,
  replacements: readonly Replacement[],
  current: Map<number, string>,
  textOf: (r: number) => string,
  state: Counters,
): void {
  const spans: { start: number; end: number; with: string }[] = []
  for (const x of replacements)
    for (const form of x.forms)
      for (let at = stream.text.indexOf(form); at !== -1; at = stream.text.indexOf(form, at + form.length)) {
        if (!spans.some((s) => s.start < at + form.length && at < s.end))
          spans.push({ start: at, end: at + form.length, with: x.with })
      }
  if (spans.length === 0) return
  spans.sort((a, b) => a.start - b.start)
  state.redactions += spans.length
  const rows = new Map<number, { row: { data: { texts?: string[]; args?: string[] } }; payload: string[] }>()
  for (const m of stream.members) {
    let text = ''
    let at = m.start
    for (const s of spans) {
      if (s.end <= m.start || s.start >= m.end) continue
      text += stream.text.slice(at, Math.max(at, s.start))
      if (s.start >= m.start) text += s.with
      at = Math.min(m.end, Math.max(at, s.end))
    }
    if (at === m.start && text === '') continue
    text += stream.text.slice(at, m.end)
    if (m.member === -1) {
      const event = JSON.parse(textOf(m.record)) as { data: { chunk: Record<string, unknown> } }
      const chunk = event.data.chunk
      chunk[chunk['type'] === 'tool-call-delta' ? 'argumentsDelta' : 'text'] = text
      current.set(m.record, JSON.stringify(event))
    } else {
      let entry = rows.get(m.record)
      if (entry === undefined) {
        const row = JSON.parse(textOf(m.record)) as { data: { texts?: string[]; args?: string[] } }
        entry = { row, payload: (row.data.args ?? row.data.texts) as string[] }
        rows.set(m.record, entry)
      }
      entry.payload[m.member] = text
    }
  }
  for (const [record, { row }] of rows) current.set(record, JSON.stringify(row))
}

/** Replace secrets and paths in one record's text, and check that none is left in any of its strings. */
function cleanRecord(text: string, replacements: readonly Replacement[], paths: readonly PathRule[], state: Counters): string {
  let next = replaceAll(text, replacements, paths, state)
  if (leftover(next, replacements) === null) return next
  // An escape the writer chose hides a form: rewrite the record from its parsed strings.
  const value = JSON.parse(text) as unknown
  const cleaned = mapStrings(value, (s) => replaceAll(s, replacements, paths, { redactions: 0, paths: 0, extra: state.extra }))
  next = JSON.stringify(cleaned)
  const left = leftover(next, replacements)
  if (left !== null) throw new RedactionError(`a ${left.with.slice(10, -10)} secret could not be removed from a record`)
  return next
}

function replaceAll(text: string, replacements: readonly Replacement[], paths: readonly PathRule[], state: Counters): string {
  let next = text
  for (const x of replacements)
    for (const form of x.forms) {
      if (!next.includes(form)) continue
      const parts = next.split(form)
      state.redactions += parts.length - 1
      next = parts.join(x.with)
    }
  for (const p of paths) {
    const before = next
    next = p.apply(next)
    if (next !== before) state.paths += p.count(before)
  }
  return next
}

/** The first replacement whose value is still in a string (or a string's unescaped view) of `text`. */
function leftover(text: string, replacements: readonly Replacement[]): Replacement | null {
  if (replacements.length === 0) return null
  let found: Replacement | null = null
  forEachString(JSON.parse(text) as unknown, '', (s) => {
    const views = [s, unescapeJsonText(s), unescapeJsonText(unescapeJsonText(s))]
    found = replacements.find((x) => views.some((v) => v.includes(x.value))) ?? null
    return found === null
  })
  return found
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]))
  return value
}

/** The header, or a line that is no event: the known secrets, anything the detectors find in it, paths. */
function cleanRawLine(
  text: string,
  replacements: readonly Replacement[],
  paths: readonly PathRule[],
  state: Counters,
  allow: ReadonlySet<string>,
): string {
  const extra: Replacement[] = []
  for (const s of secretsInString(text)) {
    const hash = secretHash(s.value)
    if (allow.has(hash) || replacements.some((x) => x.value === s.value)) continue
    state.extra.set(s.value, { value: s.value, kind: s.kind, hash })
    extra.push({ forms: escapedForms(s.value), value: s.value, with: placeholder(s.kind, hash) })
  }
  return replaceAll(
    text,
    [...extra, ...replacements].sort((a, b) => b.value.length - a.value.length),
    paths,
    state,
  )
}
