/** The `dsh-viewer.v1` wire protocol: message shapes and limits shared by the companion server and the browser client. */

/** WebSocket subprotocol the server selects; every client must offer it. */
export const PROTOCOL = 'dsh-viewer.v1'
export const PROTOCOL_VERSION = 1
/** A second offered subprotocol `dsh-viewer.token.<token>` carries the token when the URL must not. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'dsh-viewer.token.'
export const STREAM_PATH = '/v1/stream'
/** Largest client message the server accepts (ws maxPayload); client messages are small control frames. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024

/**
 * Where a subscription's events come from: a listed session by id, a file path below a served root, or a session of the
 * dsh web host the server is attached to (`--dsh`). The page never names the host itself: the server has one upstream.
 */
export type SourceRef =
  | { readonly kind: 'file'; readonly sessionId: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'dsh-web'; readonly sessionId: string }

/** The server's link to the dsh web host: never connected yet, up, lost a moment ago, or unreachable. */
export type UpstreamState = 'connecting' | 'connected' | 'reconnecting' | 'gone'

export interface ResumeEntry {
  readonly sub: string
  readonly source: SourceRef
  readonly epoch: string
  readonly lastSeq: number
  readonly window?: number
}

export type ClientMessage =
  | { readonly type: 'hello'; readonly protocol: number; readonly client?: string; readonly resume?: readonly ResumeEntry[] }
  | { readonly type: 'list'; readonly req: string }
  /** Keep the list: `sessions` now (headers, and digests scanned so far), then `sessions-changed` as things change. */
  | { readonly type: 'watch-sessions'; readonly req: string }
  | { readonly type: 'unwatch-sessions'; readonly req: string }
  | {
      readonly type: 'subscribe'
      readonly sub: string
      readonly source: SourceRef
      readonly fromSeq?: number
      readonly epoch?: string
      readonly window?: number
    }
  | { readonly type: 'ack'; readonly sub: string; readonly seq: number }
  | { readonly type: 'unsubscribe'; readonly sub: string }
  | { readonly type: 'ping'; readonly t: number }
  | { readonly type: 'pong'; readonly t: number }
  /** Search the text of every served session (the content index): answered by one `content-hits`. */
  | { readonly type: 'content-search'; readonly req: string; readonly query: string; readonly limit?: number }
  /** Build the content index in the background (first use) and say how far it is: `index-progress` as it goes. */
  | { readonly type: 'watch-index'; readonly req: string }
  | { readonly type: 'unwatch-index'; readonly req: string }

/** How far the content index is: `building` (done of total logs), `ready`, or `unavailable` (why, in `message`). */
export interface IndexProgressView {
  readonly state: 'idle' | 'building' | 'ready' | 'unavailable'
  readonly done: number
  readonly total: number
  /** Sessions and events searchable now. */
  readonly sessions: number
  readonly events: number
  readonly message?: string
}

/** One hit of a content search: the event's seq, its surface class at the end of the session, a one-line snippet. */
export interface ContentHit {
  readonly seq: number
  readonly turn: number | null
  readonly step: number | null
  readonly type: string
  readonly tool: string | null
  readonly surface: 'current' | 'shadowed' | 'log-only'
  readonly shadowedBy: number | null
  readonly snippet: string
  /** The match's [start, end) in `snippet`. */
  readonly highlight: readonly [number, number]
}

export interface ContentHitSession {
  readonly id: string | null
  readonly title: string | null
  readonly project: string | null
  readonly hits: readonly ContentHit[]
}

export interface SessionListItem {
  readonly sessionId: string
  /** Absolute path of the log, usable as `source.path`; for a `dsh-web` session `dsh-web:<id>` (a key, not a path). */
  readonly path: string
  /** Where it is followed from: a log file, or the dsh web host (`source.kind: 'dsh-web'`). Absent means file. */
  readonly source?: 'file' | 'dsh-web'
  readonly encoding: 'zstd' | 'jsonl' | 'dsh-web'
  readonly cwd?: string
  readonly createdAt?: number
  readonly parentSession?: string
  readonly origin?: string
  readonly agentPreset?: string
  /** Ids of listed sessions whose header names this one as `parentSession`. */
  readonly children: readonly string[]
  readonly sizeBytes: number
  readonly mtimeMs: number
  /** A `turn/start` without its `turn/end`; null when not known (large file not yet tailed). */
  readonly turnOpen: boolean | null
  readonly lastSeq: number | null
  /** Why the header could not be read or judged, if so. */
  readonly headerError?: string
  /** A defect the log is still read past (the core's text), e.g. a one-frame zstd log the harness would refuse. */
  readonly warning?: string
  /** From the header: `subagent` (origin), `fork` (parentSession without origin), `root`. */
  readonly kind?: 'root' | 'subagent' | 'fork'
  /** Whether the log has been scanned for the fields below (a list answers from headers first). */
  readonly scanned?: boolean
  /**
   * The latest `session/title` event's `data.title`; absent when the log has none (or is not scanned yet). For a
   * `dsh-web` session, the host's title projection.
   */
  readonly title?: string
  /** The first line of the user's first prompt: what a list shows when there is no title. */
  readonly prompt?: string
  /** Events in the log, once scanned. */
  readonly eventCount?: number
  /**
   * What the session's own calls cost (its subagents are rows of their own), once scanned: in each currency, priced
   * with the server's card as `dsh-lens usage` prices them; null where the card prices none of its calls.
   */
  readonly cost?: { readonly CNY: number | null; readonly USD: number | null }
  /** The last turn is open and the log changed in the last minute; for a `dsh-web` session, the host's running flag. */
  readonly running?: boolean
  /** dsh-web: no turn has run yet. */
  readonly blank?: boolean
  /** dsh-web: the state of the server's link to the host. */
  readonly upstream?: UpstreamState
  /** dsh-web: a subagent's label from `subagent.list`. */
  readonly label?: string
  /** dsh-web: the same session's log below the served paths, when there is one (it is listed once, from the host). */
  readonly diskPath?: string
}

/** A served path and whether it exists (the dsh home before dsh's first run does not). */
export interface CatalogRoot {
  readonly path: string
  readonly exists: boolean
}

/** How far the background scan of the listed logs is: `scanned` of `total` have current digests. */
export interface ScanProgress {
  readonly scanned: number
  readonly total: number
}

export type ResetReason =
  | 'truncated'
  | 'replaced'
  | 'epoch-mismatch'
  | 'ahead-of-file'
  | 'recovered'
  /** dsh-web: the host came back with another log than the one shown (killed mid-turn, its log repaired). */
  | 'upstream-restart'

export type ErrorCode =
  | 'bad-request'
  | 'unsupported-protocol'
  | 'not-found'
  | 'forbidden'
  | 'corrupt'
  | 'too-many-subscriptions'
  /** The peer let the socket's unread bytes sit above the high-water mark for too long: it is cut off. */
  | 'slow-consumer'
  /** A client message over MAX_CLIENT_MESSAGE_BYTES. */
  | 'message-too-large'
  /** dsh-web: the host does not answer, or does not know the session. */
  | 'upstream-unavailable'
  | 'internal'

export type ServerMessage =
  | {
      readonly type: 'welcome'
      readonly protocol: number
      readonly server: string
      readonly serverId: string
      readonly heartbeatMs: number
      readonly defaultWindow: number
      readonly maxWindow: number
      readonly maxBatchEvents: number
      readonly maxBatchBytes: number
    }
  | {
      readonly type: 'sessions'
      readonly req: string
      readonly items: readonly SessionListItem[]
      /** Sent in answer to `watch-sessions` (and to `list`): the scan's progress and the served paths. */
      readonly scan?: ScanProgress
      readonly roots?: readonly CatalogRoot[]
    }
  /** What changed since the last `sessions` / `sessions-changed` for a `watch-sessions`: rows to upsert, paths gone. */
  | {
      readonly type: 'sessions-changed'
      readonly req: string
      readonly items: readonly SessionListItem[]
      readonly removed: readonly string[]
      readonly scan: ScanProgress
      readonly roots: readonly CatalogRoot[]
    }
  | {
      readonly type: 'snapshot'
      readonly sub: string
      readonly epoch: string
      readonly sessionId: string | null
      /** The header line exactly as decoded from the file (feed it first to a fresh LensLog). */
      readonly headerLine: string
      readonly encoding: 'zstd' | 'jsonl' | 'dsh-web'
      readonly fromSeq: number
      readonly headSeq: number
      readonly mode: 'full' | 'resume'
    }
  | {
      readonly type: 'append'
      readonly sub: string
      readonly epoch: string
      readonly fromSeq: number
      readonly toSeq: number
      /** Complete plaintext JSONL records without newlines; packed rows cut at the batch edges are re-encoded as valid rows. */
      readonly lines: readonly string[]
    }
  | { readonly type: 'live'; readonly sub: string; readonly lastSeq: number }
  | { readonly type: 'reset'; readonly sub: string; readonly epoch: string | null; readonly reason: ResetReason }
  | {
      readonly type: 'status'
      readonly sub: string
      readonly writer: 'active' | 'missing'
      readonly turnOpen: boolean
      readonly headSeq: number
      readonly sizeBytes: number
      readonly mtimeMs: number
      /** dsh-web only: where the events come from, the host's running flag and title, and the link to the host. */
      readonly source?: 'dsh-web'
      readonly running?: boolean
      readonly title?: string | null
      readonly upstream?: UpstreamState
    }
  /**
   * The answer to `content-search`: sessions in `order` (strongest hit first; or, for words in more events than are
   * ranked, newest first), or one sentence (`ok` false); `index` how far it is.
   */
  | {
      readonly type: 'content-hits'
      readonly req: string
      readonly query: string
      readonly ok: boolean
      readonly message?: string
      readonly order?: 'strength' | 'recent'
      readonly sessions: readonly ContentHitSession[]
      readonly index: IndexProgressView
    }
  | { readonly type: 'index-progress'; readonly req: string; readonly index: IndexProgressView }
  | { readonly type: 'ping'; readonly t: number; readonly subs: Readonly<Record<string, number>> }
  | { readonly type: 'pong'; readonly t: number }
  | {
      readonly type: 'error'
      readonly sub?: string
      readonly req?: string
      readonly code: ErrorCode
      readonly message: string
      readonly fatal: boolean
      /** For `corrupt`: the 1-based plaintext line (header = 1) of the defect, when it has one. */
      readonly line?: number
      /** For `corrupt`: the byte offset in the file (zstd: of the frame; JSONL: of the line). */
      readonly offset?: number
      /** For `corrupt`: the core's diagnostic code (e.g. `line-invalid-json`, `zstd-frame-corrupt`). */
      readonly diagnostic?: string
    }
