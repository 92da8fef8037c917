/**
 * Characters that change how text reads without being seen: bidirectional controls (the "Trojan Source" trick,
 * `abc\u202Eevil` displays reversed), zero-width and other format characters, C0/C1 controls, lone surrogates.
 * Code review tools (GitHub's "hidden or bidirectional Unicode" warning) show them as visible markers; the
 * inspector and the rows do the same.
 *
 * Why in the core: it is pure text classification with no DOM, and two layers need the same answer: the worker
 * counts hidden characters over a whole value (up to hundreds of MB, which never reaches the main thread), and
 * the UI splits the part it shows into text and markers. The core is the one layer both may import.
 */

export type HiddenKind = 'bidi' | 'invisible' | 'control' | 'surrogate'

/** Names for the characters people are warned about most; the rest get their code point only. */
const NAMES: Readonly<Record<number, string>> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
  0x00ad: 'SOFT HYPHEN',
  0x0000: 'NUL',
}

/**
 * One pattern for every hidden character, so a scan of a large value is a single native regex pass.
 * - bidi: U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069;
 * - control: C0 except \t and \n (so \r and NUL are shown), DEL and C1;
 * - invisible: every other format character (\p{Cf}: zero-width characters, U+2060, U+FEFF, soft hyphen, tag
 *   characters used for "ASCII smuggling"), the line/paragraph separators, and the Hangul fillers that render
 *   as blank letters;
 * - surrogate: a UTF-16 surrogate without its pair (shows as a replacement glyph, or nothing).
 */
const HIDDEN =
  /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|(?![\t\n])\p{Cc}|[\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]|\p{Cs}/gu

/** Compiled once: a property-class regex costs far more to build than to run on a row's text. */
const HIDDEN_ANY = new RegExp(HIDDEN.source, 'u')
const BIDI = /^[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]$/u
const CONTROL = /^(?![\t\n])\p{Cc}$/u
const SURROGATE = /^\p{Cs}$/u

/** The kind of one character (a code point as a string), or null when it shows as itself. */
export function hiddenKind(char: string): HiddenKind | null {
  if (BIDI.test(char)) return 'bidi'
  if (CONTROL.test(char)) return 'control'
  if (SURROGATE.test(char)) return 'surrogate'
  const m = HIDDEN_ANY.exec(char)
  return m !== null && m[0] === char ? 'invisible' : null
}

/** "U+202E" for one code point. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The marker text that stands for a hidden character: ⟨U+202E⟩. */
export function hiddenMarker(codePoint: number): string {
  return `⟨${codePointLabel(codePoint)}⟩`
}

/** A human name for the tooltip, e.g. "RIGHT-TO-LEFT OVERRIDE (U+202E)". */
export function hiddenCharName(codePoint: number): string {
  const name = NAMES[codePoint]
  return name === undefined ? codePointLabel(codePoint) : `${name} (${codePointLabel(codePoint)})`
}

export type TextSegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: HiddenKind; readonly text: string; readonly codePoint: number }

/** Split text into plain runs and single hidden characters, in order; joining every `text` gives `text` back. */
export function splitHidden(text: string): TextSegment[] {
  const out: TextSegment[] = []
  const re = HIDDEN
  re.lastIndex = 0
  let last = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) })
    const char = m[0]
    out.push({ kind: hiddenKind(char) ?? 'invisible', text: char, codePoint: char.codePointAt(0) ?? 0 })
    last = m.index + char.length
  }
  if (last < text.length || out.length === 0) out.push({ kind: 'text', text: text.slice(last) })
  return out
}

export interface HiddenCounts {
  readonly total: number
  readonly bidi: number
  readonly invisible: number
  readonly control: number
  readonly surrogate: number
}

/** How many hidden characters `text` holds, by kind (one regex pass; no segments are built). */
export function countHidden(text: string): HiddenCounts {
  const counts = { total: 0, bidi: 0, invisible: 0, control: 0, surrogate: 0 }
  const re = HIDDEN
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    counts.total++
    counts[hiddenKind(m[0]) ?? 'invisible']++
  }
  return counts
}

/** Whether `text` holds any hidden character (stops at the first). */
export function hasHidden(text: string): boolean {
  return HIDDEN_ANY.test(text)
}
