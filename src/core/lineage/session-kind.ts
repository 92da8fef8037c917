/** A session's kind from its header (format reference 5): what the sessions tree and the sessions list both show. */

import type { SessionHeader } from '../model/log-event.ts'

export type SessionKind = 'root' | 'subagent' | 'fork'

/** `subagent` (origin), `fork` (a parentSession without origin), `root` (no parentSession). */
export function sessionKindOf(header: Pick<SessionHeader, 'parentSession' | 'origin'> | null): SessionKind {
  const parent = header?.parentSession
  if (typeof parent !== 'string') return 'root'
  return header?.origin === 'subagent' ? 'subagent' : 'fork'
}
