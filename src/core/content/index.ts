/** Cross-session content search, the pure part: each event's searchable text and surface standing, and the query. */

export { eventText } from './event-text.ts'
export {
  ContentExtractor,
  SURFACE_CLASSES,
  type ContentDocument,
  type Reclassified,
  type SurfaceClass,
  type SurfaceStanding,
} from './content-extractor.ts'
export {
  parseContentQuery,
  clearMarkers,
  HIGHLIGHT_START,
  HIGHLIGHT_END,
  type ContentQuery,
  type ParsedQuery,
} from './content-query.ts'
export { contentSnippet } from './content-snippet.ts'
