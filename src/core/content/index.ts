/** Cross-session content search, the pure part: each event's searchable text and surface standing, and the query. */

export { eventText } from './event-text.ts'
export { ContentLog, type ContentLogOptions } from './content-log.ts'
export {
  SURFACE_CLASSES,
  type ContentDocument,
  type RecordPlace,
  type Reclassified,
  type SurfaceClass,
  type SurfaceStanding,
} from './content-document.ts'
export { documentTextAt, framePlaintext } from './read-back.ts'
export {
  parseContentQuery,
  clearMarkers,
  HIGHLIGHT_START,
  HIGHLIGHT_END,
  type ContentQuery,
  type ParsedQuery,
} from './content-query.ts'
export { contentSnippet } from './content-snippet.ts'
