/**
 * The secrets of a log, asked for (never computed while the log loads), over the `LensLog` the load made.
 *
 * 1. **Detect.** The prefilter (`SECRET_PREFILTER`) runs natively over the decoded text blocks the log already
 *    holds; only records with a hit are parsed, and every string of such an event is read by the detectors (as
 *    search reads them: strings as on disk, with their JSON paths). A record written with optional escapes (`\/`,
 *    `\u0041`) is always parsed: its text may spell an anchor in escapes.
 * 2. **Every occurrence.** Each value found is then looked for in all the text, in each of its JSON-escaped forms,
 *    so a secret written again where no rule would recognise it (an AWS secret key without its variable name) is
 *    reported (and redacted) there too, under the kind first found.
 * 3. **Streams.** A model's output is logged twice: streamed as deltas (`assistant/chunk`, packed rows), then whole
 *    in its `assistant/message`. Deltas split a secret, so they are read as streams: every delta of one block
 *    (turn, step, chunk type, index) in order, concatenated. Streams are read for the steps where step 1 or 2 found
 *    something or a delta hit the prefilter, and for steps that never logged their message (a cut stream's text is
 *    nowhere else). A finding in a stream is at the delta where the secret starts.
 *
 * Each finding says where (seq, JSON path, line), what (kind, masked preview, short hash, masked context) and when
 * the model saw it: the event's own visible ranges on the surface, computed as search computes them.
 */

import type { LogEvent } from '../model/log-event.ts'
import type { LensLog } from '../log/lens-log.ts'
import { forEachString } from '../search/json-leaves.ts'
import { surfaceNodeOf, visibleRanges, type IndexRange } from '../search/visible-ranges.ts'
import { SECRET_PREFILTER, SECRET_RULES, type SecretKind } from './detectors.ts'
import { escapedForms } from './escapes.ts'
import { maskedContext, maskSecret } from './mask.ts'
import { secretHash } from './secret-hash.ts'
import { secretsInString, type StringSecret } from './string-secrets.ts'
import { isDelta, readStreams, type DeltaStream } from './delta-streams.ts'

export interface SecretFinding {
  /** Event index (-1: the session header). */
  readonly index: number
  readonly seq: number | null
  /** Physical line (the header is line 1). */
  readonly line: number
  /** The JSON path of the string holding it, as search reports paths (`data.message.content[0].text`). */
  readonly field: string
  readonly kind: SecretKind
  /** The format's public marker, two characters at most beyond it, and the length: never the secret. */
  readonly masked: string
  /** 8 hex digits of the secret's SHA-256: equal secrets, equal hashes. */
  readonly hash: string
  /** The text around it, with every secret in it masked. */
  readonly context: string
  /** When the event holding it was on the model surface (event indices, inclusive); empty: never sent. */
  readonly visible: readonly IndexRange[]
}

/** One distinct secret value: what redaction replaces. Never printed; only `hash` and `kind` leave the core. */
export interface SecretValue {
  readonly value: string
  readonly kind: SecretKind
  readonly hash: string
}

export class SecretScan {
  constructor(
    /** In log order (index, then field, then position). */
    readonly findings: readonly SecretFinding[],
    private readonly secrets: readonly SecretValue[],
  ) {}

  /** Distinct secrets: their hash and kind, in order of first finding. */
  get distinct(): readonly { readonly hash: string; readonly kind: SecretKind }[] {
    return this.secrets.map(({ hash, kind }) => ({ hash, kind }))
  }

  /** The values to redact, without those whose hash is allowed; longest first (a key inside a longer one). */
  valuesToRedact(allow: ReadonlySet<string> = new Set()): SecretValue[] {
    return this.secrets.filter((s) => !allow.has(s.hash)).sort((a, b) => b.value.length - a.value.length)
  }
}

/** Text that JSON.stringify never writes but a hand-made log may: an optional escape can spell any anchor. */
const OPTIONAL_ESCAPE = /\\u(?!00[01][0-9a-fA-F]|d[89a-fA-F])|\\\//g
const RULE_ORDER = new Map(SECRET_RULES.map((rule, k) => [rule.kind, k]))

interface RawFinding {
  readonly index: number
  readonly seq: number | null
  readonly line: number
  readonly field: string
  readonly text: string
  readonly secret: StringSecret
}

export function scanSecrets(log: LensLog): SecretScan {
  const scan = new Scanner(log)
  return scan.run()
}

class Scanner {
  private readonly texts
  private readonly raw: RawFinding[] = []
  private readonly seen = new Set<string>()
  /** value → kind (the first rule's, by rule order, when two rules found it). */
  private readonly values = new Map<string, SecretKind>()
  /** Steps (positions in `log.timing.steps`) whose delta streams must be read. */
  private readonly streamSteps = new Set<number>()
  private readonly readSteps = new Set<number>()

  constructor(private readonly log: LensLog) {
    this.texts = log.recordTexts
  }

  run(): SecretScan {
    this.scanHeader()
    const candidates = this.prefilter()
    for (const r of candidates) this.scanRecord(r)
    let searched = 0
    // Occurrences of every value found, then the streams of the steps concerned; a stream can add a value (a cut
    // stream), whose occurrences are then looked for in turn.
    for (;;) {
      const fresh = [...this.values.keys()].slice(searched)
      searched = this.values.size
      if (fresh.length > 0) this.findOccurrences(fresh)
      this.markSteps()
      const pending = [...this.streamSteps].filter((s) => !this.readSteps.has(s))
      for (const s of pending) this.scanStreams(s)
      if (pending.length === 0 && this.values.size === searched) break
    }
    return this.result()
  }

  private scanHeader(): void {
    if (this.log.header === null) return
    forEachString(this.log.header, 'header', (text, path) => {
      this.collect(-1, null, 1, path, text, secretsInString(text))
      return true
    })
  }

  /** Records whose text holds a prefilter hit or an optional escape. */
  private prefilter(): number[] {
    const texts = this.texts
    const out: number[] = []
    let r = 0
    while (r < texts.length) {
      const block = texts.blockOf(r)
      const text = texts.blockText(block)
      const hits: number[] = []
      for (const re of [SECRET_PREFILTER, OPTIONAL_ESCAPE]) {
        re.lastIndex = 0
        for (let m = re.exec(text); m !== null; m = re.exec(text)) {
          hits.push(m.index)
          // One hit per record is enough: skip to the end of the record holding this one.
          const end = text.indexOf('\n', m.index)
          re.lastIndex = end === -1 ? text.length : end
        }
      }
      hits.sort((a, b) => a - b)
      let h = 0
      for (; r < texts.length && texts.blockOf(r) === block; r++) {
        while (h < hits.length && (hits[h] as number) < texts.startOf(r)) h++
        if (h < hits.length && (hits[h] as number) < texts.endOf(r)) out.push(r)
      }
    }
    return out
  }

  private scanRecord(r: number): void {
    const texts = this.texts
    const index = texts.firstIndexOf(r)
    if (texts.isRow(r)) {
      this.streamSteps.add(this.stepAt(index))
      return
    }
    let event: LogEvent
    try {
      event = JSON.parse(texts.text(r)) as LogEvent
    } catch {
      return
    }
    if (isDelta(event)) {
      this.streamSteps.add(this.stepAt(index))
      return
    }
    const seq = typeof event?.seq === 'number' ? event.seq : null
    const line = texts.lineOf(r)
    forEachString(event, '', (text, path) => {
      this.collect(index, seq, line, path, text, secretsInString(text))
      return true
    })
  }

  private collect(index: number, seq: number | null, line: number, field: string, text: string, found: StringSecret[]): void {
    for (const secret of found) {
      const key = `${index}\u0000${field}\u0000${secret.start}`
      if (this.seen.has(key)) continue
      this.seen.add(key)
      const known = this.values.get(secret.value)
      const kind = known === undefined || order(secret.kind) < order(known) ? secret.kind : known
      this.values.set(secret.value, kind)
      this.raw.push({ index, seq, line, field, text, secret })
    }
  }

  /** Every place the text holds one of `values` in any escaped form (outside delta streams, which step 3 reads). */
  private findOccurrences(values: readonly string[]): void {
    const texts = this.texts
    const forms = this.forms(values)
    const records = new Set<number>()
    for (let r = 0, block = -1; r < texts.length; r++) {
      if (texts.blockOf(r) === block) continue
      block = texts.blockOf(r)
      const text = texts.blockText(block)
      for (const { forms: list } of forms)
        for (const form of list)
          for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) records.add(recordAt(texts, r, at))
    }
    for (const r of [...records].sort((a, b) => a - b)) {
      if (r < 0) continue
      const index = texts.firstIndexOf(r)
      if (texts.isRow(r)) {
        this.streamSteps.add(this.stepAt(index))
        continue
      }
      const event = JSON.parse(texts.text(r)) as LogEvent
      if (isDelta(event)) {
        this.streamSteps.add(this.stepAt(index))
        continue
      }
      const seq = typeof event?.seq === 'number' ? event.seq : null
      forEachString(event, '', (text, path) => {
        this.collect(index, seq, texts.lineOf(r), path, text, occurrences(text, forms))
        return true
      })
    }
  }

  /** Steps holding a finding: their streams carried the same text. */
  private markSteps(): void {
    for (const f of this.raw) if (f.index >= 0) this.streamSteps.add(this.stepAt(f.index))
    for (const [k, step] of this.log.timing.steps.entries()) if (step.messageIndex === -1) this.streamSteps.add(k)
    this.streamSteps.delete(-1)
  }

  private scanStreams(step: number): void {
    this.readSteps.add(step)
    const steps = this.log.timing.steps
    const span = (steps[step] as (typeof steps)[number]).span
    const next = steps[step + 1]?.span.start ?? this.log.length
    const end = span.end ?? next - 1
    const forms = this.forms([...this.values.keys()])
    for (const stream of readStreams(this.log, span.start, end)) this.scanStream(stream, forms)
  }

  private forms(values: readonly string[]): ValueForms[] {
    return values.map((value) => ({ value, kind: this.values.get(value) as SecretKind, forms: escapedForms(value) }))
  }

  private scanStream(stream: DeltaStream, forms: readonly ValueForms[]): void {
    const text = stream.text
    const found = [...secretsInString(text), ...occurrences(text, forms)]
    for (const secret of found) {
      const member = stream.memberAt(secret.start)
      this.collect(member.index, member.seq, member.line, stream.field, text, [secret])
    }
  }

  private stepAt(index: number): number {
    const steps = this.log.timing.steps
    let lo = 0
    let hi = steps.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((steps[mid] as (typeof steps)[number]).span.start <= index) lo = mid + 1
      else hi = mid
    }
    return lo - 1
  }

  private result(): SecretScan {
    const hashes = new Map<string, string>()
    const hashOf = (value: string): string => {
      let hash = hashes.get(value)
      if (hash === undefined) hashes.set(value, (hash = secretHash(value)))
      return hash
    }
    const sorted = [...this.raw].sort(
      (a, b) => a.index - b.index || a.line - b.line || compare(a.field, b.field) || a.secret.start - b.secret.start,
    )
    // Masked spans per string, for the contexts.
    const spans = new Map<string, { start: number; end: number; masked: string }[]>()
    for (const f of sorted) {
      const key = `${f.index}\u0000${f.field}`
      const kind = this.values.get(f.secret.value) as SecretKind
      const list = spans.get(key) ?? []
      list.push({ start: f.secret.start, end: f.secret.end, masked: maskSecret(f.secret.value, kind) })
      spans.set(key, list)
    }
    const findings = sorted.map((f): SecretFinding => {
      const kind = this.values.get(f.secret.value) as SecretKind
      const node = f.seq === null || f.index < 0 ? -1 : surfaceNodeOf(this.log, f.seq, f.index)
      const list = (spans.get(`${f.index}\u0000${f.field}`) ?? []).sort((a, b) => a.start - b.start)
      return {
        index: f.index,
        seq: f.seq,
        line: f.line,
        field: f.field,
        kind,
        masked: maskSecret(f.secret.value, kind),
        hash: hashOf(f.secret.value),
        context: maskedContext(f.text, list, f.secret),
        visible: node === -1 ? [] : visibleRanges(this.log, [node]),
      }
    })
    const order = new Map<string, number>()
    for (const f of sorted) if (!order.has(f.secret.value)) order.set(f.secret.value, order.size)
    const secrets = [...order.keys()].map((value) => ({ value, kind: this.values.get(value) as SecretKind, hash: hashOf(value) }))
    return new SecretScan(findings, secrets)
  }
}

function order(kind: SecretKind): number {
  return RULE_ORDER.get(kind) ?? Number.MAX_SAFE_INTEGER
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

interface ValueForms {
  readonly value: string
  readonly kind: SecretKind
  readonly forms: readonly string[]
}

/** Where any form of `values` occurs in `text`, as string secrets with their canonical value. */
function occurrences(text: string, values: readonly ValueForms[]): StringSecret[] {
  const out: StringSecret[] = []
  for (const { value, kind, forms } of values) {
    for (const form of forms) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
        if (!out.some((s) => s.start < at + form.length && at < s.end))
          out.push({ kind, start: at, end: at + form.length, value })
      }
    }
  }
  return out
}

/** The record of `block`'s text holding position `at`, searching from record `first` of that block. */
function recordAt(texts: LensLog['recordTexts'], first: number, at: number): number {
  const block = texts.blockOf(first)
  let lo = first
  let hi = first
  while (hi < texts.length && texts.blockOf(hi) === block) hi++
  // Records of a block are contiguous and ordered by position: the last whose start is at or before `at`.
  let found = -1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (texts.startOf(mid) <= at) {
      found = mid
      lo = mid + 1
    } else hi = mid
  }
  return found !== -1 && texts.endOf(found) > at ? found : -1
}
