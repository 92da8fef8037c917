/** Full-text search over a LensLog: the matcher, the resumable scan, and when matching messages were on the surface. */

export { compileMatcher } from './text-matcher.ts'
export { LogSearch, MAX_MATCHES_PER_EVENT, type SearchFilters, type SearchMatch, type IndexRange } from './log-search.ts'
