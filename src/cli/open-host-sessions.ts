/**
 * `dsh-lens SESSION-ID --dsh [URL]`: the sessions the dsh web host knows whose id is the one given or starts with it,
 * for a session the host has and the disk below the dsh home does not (the host runs on another home, or the session
 * was never written where this dsh-lens looks). One `session.list`, a read like every call dsh-lens makes.
 */

import { HostRpc } from '../server/dsh-web/host-rpc.ts'
import { parseSessionList } from '../server/dsh-web/host-wire.ts'
import { idMatches } from './open-target.ts'

/** How long a start waits for the host before it says it could not ask. */
const LIST_TIMEOUT_MS = 10_000

export type HostSessionMatches =
  { readonly ok: true; readonly ids: readonly string[] } | { readonly ok: false; readonly why: string }

/** The ids the host lists that are `query` or start with it (the exact ones alone when there are any), sorted. */
export async function findHostSessions(base: URL, query: string): Promise<HostSessionMatches> {
  const result = await new HostRpc({ base, timeoutMs: LIST_TIMEOUT_MS }).call('session.list', {})
  if (!result.ok) return { ok: false, why: result.why }
  const list = parseSessionList(result.value)
  if (!list.ok) return { ok: false, why: list.why }
  const found = list.value.map((s) => s.sessionId).filter((id) => idMatches(id, query))
  const exact = found.filter((id) => id === query || id === `session-${query}`)
  return { ok: true, ids: (exact.length > 0 ? exact : found).sort() }
}
