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
 * The definition of a hidden character (checked at one position at a time, sticky):
 * - bidi: U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069;
 * - control: C0 except \t and \n (so \r and NUL are shown), DEL and C1;
 * - invisible: every other format character (\p{Cf}: zero-width characters, U+2060, U+FEFF, soft hyphen, tag
 *   characters used for "ASCII smuggling"), the line/paragraph separators, and the Hangul fillers that render
 *   as blank letters;
 * - surrogate: a UTF-16 surrogate without its pair (shows as a replacement glyph, or nothing).
 */
const HIDDEN_AT =
  /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|(?![\t\n])\p{Cc}|[\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]|\p{Cs}/uy

/**
 * A superset of the hidden characters as UTF-16 units, without the `u` flag: V8 scans a plain class over a
 * string many times faster than a Unicode property alternation, so the exact
 * pattern runs only where this one stops. Every surrogate is a candidate (astral format characters such as the
 * tags, and lone surrogates, live there). The unit test checks it covers `HIDDEN_AT` on every BMP code point.
 */
/* eslint-disable no-control-regex -- finding control characters is the point */
const CANDIDATE =
  /[\0-\x08\x0B-\x1F\x7F-\x9F\xAD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u089F\u08E2\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\uD800-\uDFFF]/g
/* eslint-enable no-control-regex */

/** Compiled once: a property-class regex costs far more to build than to run on a row's text. */
const HIDDEN_ANY = new RegExp(HIDDEN_AT.source, 'u')
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

/** Calls `visit` with the index and text of every hidden character of `text`, in order; stops when it returns false. */
function scanHidden(text: string, visit: (index: number, char: string) => boolean | void): void {
  const candidates = new RegExp(CANDIDATE.source, 'g')
  for (let m = candidates.exec(text); m !== null; m = candidates.exec(text)) {
    const at = m.index
    HIDDEN_AT.lastIndex = at
    const hit = HIDDEN_AT.exec(text)
    if (hit !== null) {
      if (visit(at, hit[0]) === false) return
      candidates.lastIndex = at + hit[0].length
    } else if (isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1))) {
      // A visible astral character (an emoji): skip its low half, which alone would read as a lone surrogate.
      candidates.lastIndex = at + 2
    }
  }
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff

export type TextSegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: HiddenKind; readonly text: string; readonly codePoint: number }

/** Split text into plain runs and single hidden characters, in order; joining every `text` gives `text` back. */
export function splitHidden(text: string): TextSegment[] {
  const out: TextSegment[] = []
  let last = 0
  scanHidden(text, (index, char) => {
    if (index > last) out.push({ kind: 'text', text: text.slice(last, index) })
    out.push({ kind: hiddenKind(char) ?? 'invisible', text: char, codePoint: char.codePointAt(0) ?? 0 })
    last = index + char.length
  })
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

/** How many hidden characters `text` holds, by kind (no segments are built). */
export function countHidden(text: string): HiddenCounts {
  const counts = { total: 0, bidi: 0, invisible: 0, control: 0, surrogate: 0 }
  scanHidden(text, (_, char) => {
    counts.total++
    counts[hiddenKind(char) ?? 'invisible']++
  })
  return counts
}

/** Whether `text` holds any hidden character (stops at the first). */
export function hasHidden(text: string): boolean {
  let found = false
  scanHidden(text, () => {
    found = true
    return false
  })
  return found
}

/** For the unit test: whether the fast pre-filter admits `char` (one UTF-16 unit or a pair). */
export function isHiddenCandidate(char: string): boolean {
  return new RegExp(CANDIDATE.source).test(char)
}
