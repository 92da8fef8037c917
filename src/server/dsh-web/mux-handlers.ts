/**
 * What the server does with each frame of the host's `/api/events.mux`: one handler per frame kind (host-wire.ts
 * parses them), so a kind added there without a handler fails to compile. Events go to the followed session, titles to
 * the host's catalog, `stream/error` drops the link; frames dsh-lens has no use for are counted.
 */

import type { HostCatalog } from './host-catalog.ts'
import type { HostSession } from './host-session.ts'
import type { MuxFrame } from './host-wire.ts'

export interface MuxScope {
  session(sessionId: string): HostSession | undefined
  readonly counters: { foreign: number; ignored: number }
  readonly catalog: HostCatalog
  listChanged(): void
  /** Drop the link (and rebuild it later). */
  drop(why: string): void
}

type MuxHandler<K extends MuxFrame['kind']> = (on: MuxScope, frame: Extract<MuxFrame, { kind: K }>) => void

/** One handler per mux frame kind: a kind added to host-wire.ts without a handler fails to compile. */
const MUX_HANDLERS: { readonly [K in MuxFrame['kind']]: MuxHandler<K> } = {
  event: (on, frame) => {
    const session = on.session(frame.sessionId)
    if (session === undefined) on.counters.foreign++
    else session.event(frame.event)
  },
  subscribed: (on, frame) => on.session(frame.sessionId)?.subscribed(frame.lastSeq),
  projection: (on, frame) => {
    if (frame.key === 'title' && on.catalog.title(frame.sessionId, frame.value, frame.seq)) {
      on.session(frame.sessionId)?.statusChanged()
      on.listChanged()
    }
  },
  'stream-error': (on, frame) => on.drop(`events.mux: stream/error: ${frame.message}`),
  other: (on) => {
    on.counters.ignored++
  },
}

export function handleMuxFrame(on: MuxScope, frame: MuxFrame): void {
  // The table is keyed by the frame's own kind, so this handler takes exactly this frame.
  const handler = MUX_HANDLERS[frame.kind] as MuxHandler<MuxFrame['kind']>
  handler(on, frame as never)
}
