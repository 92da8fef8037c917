/**
 * What a `subscribe` / `resume` source may hold in dsh-viewer.v1: the server answers anything longer with a fatal
 * `bad-request` and closes the connection (src/server/stream/client-message.ts). Shared so the client refuses such a
 * source itself: sent anyway, every reconnect would send it again and be closed again, forever.
 */

import type { SourceRef } from './protocol.ts'

/** Longest `source.sessionId`, in UTF-16 code units (`String.length`). */
export const SESSION_ID_MAX = 512
/** Longest `source.path`, in UTF-16 code units. */
export const SOURCE_PATH_MAX = 4096

/** Why the server would refuse `source`, in one line, or null when it is acceptable. */
export function sourceRefProblem(source: SourceRef): string | null {
  if ('sessionId' in source && typeof source.sessionId === 'string') {
    if (source.sessionId.length > SESSION_ID_MAX)
      return `the session id is ${source.sessionId.length} characters long; the server takes at most ${SESSION_ID_MAX}`
    return null
  }
  if ('path' in source && typeof source.path === 'string') {
    if (source.path.length > SOURCE_PATH_MAX)
      return `the path is ${source.path.length} characters long; the server takes at most ${SOURCE_PATH_MAX}`
    return null
  }
  return 'the source has neither a session id nor a path'
}
