/** What every `/v1/stream` connection of one server shares: where sessions come from, the limits, the timings. */

import type { ContentSearch } from '../content-search/content-search-room.ts'
import type { SessionSources } from './session-sources.ts'
import type { StreamLimits } from './subscription.ts'

export interface StreamContext {
  /** The sessions a connection lists, watches and follows (with `--dsh`, the host's too). */
  readonly sources: SessionSources
  readonly limits: StreamLimits
  readonly serverId: string
  readonly heartbeatMs: number
  /** Silence (no message, no pong) after which the peer is considered gone. */
  readonly deadMs: number
  readonly defaultWindow: number
  readonly maxWindow: number
  readonly maxSubscriptions: number
  /** Unread bytes above the high-water mark for this long: the peer is cut off as a slow consumer. */
  readonly stallMs: number
  /** The served paths' content index, or (no cache directory given) one that answers `unavailable` with why. */
  readonly contentSearch: ContentSearch
  /** Record a refusal or cut-off (the server's incident log). */
  readonly note: (peer: string, what: string) => void
}

/**
 * What `ws` itself accepts before closing with 1009 (no reason): far above the protocol's 64 KiB, so a message in
 * between is read and refused with a clear `message-too-large`, and memory per message stays bounded.
 */
export const WS_MAX_PAYLOAD_BYTES = 1024 * 1024
