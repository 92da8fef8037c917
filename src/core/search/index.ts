/** Full-text search over a LensLog: the matcher, the resumable scan, and when matching messages were on the surface. */

export { compileMatcher, nestedQuantifier, REGEX_MAX_CHARS, type TextMatcher, type CompileResult } from './text-matcher.ts'
export {
  LogSearch,
  MAX_MATCHES_PER_EVENT,
  type SearchFilters,
  type SearchMatch,
  type IndexRange,
  type StepLimit,
} from './log-search.ts'
export { makeSnippet, type Snippet } from './snippet.ts'
export { forEachString, childPath } from './json-leaves.ts'
