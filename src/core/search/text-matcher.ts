/**
 * What a search looks for, compiled once: a case-insensitive literal (the default) or a regular expression, each
 * as (a) a matcher over one decoded string and (b), for literals, a prefilter over the raw JSON text of a record.
 *
 * Case folding is the RegExp `iu` one (Unicode simple case folding, one code point at a time) for both, never
 * `toLowerCase` (which can change a string's length and would break the match offsets the UI highlights).
 * The prefilter is sound because JSON escaping is per character: if a decoded string contains the needle, its
 * `JSON.stringify` text contains the needle's escaped text, and folding is per code point too. Records written with
 * optional escapes (`\u00e9` for `é`, `\/`) escape that argument, so they are always parsed (see `OPTIONAL_ESCAPE`).
 */

/** Regex mode reads at most this many characters of one string: a backtracking engine is quadratic or worse there. */
export const REGEX_MAX_CHARS = 8192
/** Regex mode stops reading further strings of one event after this long (ms); the search reports the cut. */
export const REGEX_EVENT_BUDGET_MS = 50

/** Escapes JSON permits but `JSON.stringify` never writes: `\u` of a code unit from U+0020 on, and `\/`. */
export const OPTIONAL_ESCAPE = /\\u(?!00[01][0-9a-fA-F])|\\\//

export interface TextMatcher {
  readonly regex: boolean
  /**
   * Global regex over raw record text: a record with no hit holds no matching string. `null` in regex mode, where
   * every record is parsed (a user's pattern over escaped JSON text is not sound).
   */
  readonly prefilter: RegExp | null
  /** First match in `text` as [start, end), or null. Regex mode reads only the first `REGEX_MAX_CHARS`. */
  first(text: string): { readonly start: number; readonly end: number } | null
}

export type CompileResult = { readonly ok: true; readonly matcher: TextMatcher } | { readonly ok: false; readonly error: string }

function escapeRegExp(text: string): string {
  // Only the syntax characters: Unicode mode (`u`) refuses identity escapes such as `\-` or `\/`.
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')
}

/**
 * A quantified group that itself contains a quantifier (`(a+)+`, `(\w*x)*`): the shape of exponential
 * backtracking. A heuristic over the pattern's source (escapes and classes skipped), as the safe-regex checks do.
 */
export function nestedQuantifier(source: string): boolean {
  const groups: boolean[] = []
  let inner = false
  const isQuantifier = (at: number): boolean => {
    const c = source[at]
    if (c === '*' || c === '+') return true
    if (c !== '{') return false
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at))
    return m !== null && m[2] !== undefined && (m[3] === '' || Number(m[3]) > 1)
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
      continue
    }
    if (c === '(') {
      groups.push(inner)
      inner = false
      continue
    }
    if (c === ')') {
      const quantified = isQuantifier(i + 1)
      if (quantified && inner) return true
      inner = (groups.pop() ?? false) || inner || quantified
      continue
    }
    if (isQuantifier(i)) inner = true
  }
  return false
}

/** Compile a query. Empty text is not a query (the caller shows nothing); an invalid regex says why in one line. */
export function compileMatcher(text: string, regex: boolean): CompileResult {
  if (text.length === 0) return { ok: false, error: 'empty query' }
  if (!regex) {
    const pattern = new RegExp(escapeRegExp(text), 'iu')
    const escaped = JSON.stringify(text).slice(1, -1)
    return {
      ok: true,
      matcher: {
        regex: false,
        prefilter: new RegExp(escapeRegExp(escaped), 'giu'),
        first(s) {
          const m = pattern.exec(s)
          return m === null ? null : { start: m.index, end: m.index + m[0].length }
        },
      },
    }
  }
  let pattern: RegExp
  try {
    pattern = new RegExp(text, 'iu')
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  if (pattern.test(''))
    return { ok: false, error: `regular expression /${text}/ matches the empty string: every event would match` }
  if (nestedQuantifier(text)) {
    return {
      ok: false,
      error: `regular expression /${text}/ nests a quantifier inside a quantified group: it can take exponential time`,
    }
  }
  return {
    ok: true,
    matcher: {
      regex: true,
      prefilter: null,
      first(s) {
        const m = pattern.exec(s.length > REGEX_MAX_CHARS ? s.slice(0, REGEX_MAX_CHARS) : s)
        return m === null ? null : { start: m.index, end: m.index + m[0].length }
      },
    },
  }
}
