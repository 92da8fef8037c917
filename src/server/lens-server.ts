/**
 * The companion server as one object, composed from its rooms: the catalog (the sessions below the served paths),
 * the file tails, the dsh web host when attached, the stream (a `/v1/stream` connection per page) and http (the
 * listener's trust fence, sign-in and static files). Used by `dsh-lens serve`, `dsh-lens [open]`, the bench and tests.
 */

import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { dirname, join } from 'node:path'
import { WebSocketServer } from 'ws'
import { builtInRateCard, BUNDLE_TEMPLATE_FILE, loadContentChecksum, type RateCard } from '../core/index.ts'
import { serverPolicy } from '../build/content-security-policy.ts'
import { STREAM_PATH } from '../live/protocol.ts'
import type { BackoffOptions } from '../live/backoff.ts'
import { readLogHeader } from './catalog/log-header.ts'
import { SessionCatalog } from './catalog/session-catalog.ts'
import { ContentSearchRoom, NO_CONTENT_INDEX, noContentSearch } from './content-search/content-search-room.ts'
import { DshWebUpstream } from './dsh-web/dsh-web-upstream.ts'
import { MergedSessions } from './dsh-web/merged-sessions.ts'
import { extraHostsFor, listenWithFallback, originOf } from './http/listen.ts'
import { pageRequestHandler } from './http/page-requests.ts'
import { newToken, selectProtocol, type TrustPolicy } from './http/request-trust.ts'
import { streamUpgradeHandler } from './http/stream-upgrades.ts'
import { PathGuard } from './path-guard.ts'
import { FileSources, HostAndFileSources } from './stream/session-sources.ts'
import { StreamConnection, type ConnectionStats } from './stream/stream-connection.ts'
import { WS_MAX_PAYLOAD_BYTES, type StreamContext } from './stream/stream-context.ts'
import type { SessionTail } from './tail/session-tail.ts'
import { TailRegistry } from './tail/tail-registry.ts'

export interface LensServerOptions {
  /** Session files, session directories or sessions roots to serve (read-only). */
  readonly roots: readonly string[]
  /** A root that does not exist yet (the dsh home before dsh's first run) is served empty instead of refused. */
  readonly allowMissingRoots?: boolean
  /** The sessions list's stat poll while a page watches it (default 1000 ms). */
  readonly catalogPollMs?: number
  /**
   * The card the sessions list's cost column is priced with (`--rates`, `DSH_LENS_RATES`); default the built-in one.
   * Another card is also given to the served page (index.html's `dsh-lens-rates`), whose panes then price with it.
   */
  readonly rateCard?: RateCard
  /**
   * Mark the served index.html (`dsh-lens-served`) so the page opens the sessions home instead of the demo: what
   * `dsh-lens [open]` serves. Off for `serve`, whose page stays as it was (the Connect flow by `?ws=`).
   */
  readonly sessionsHome?: boolean
  readonly host?: string
  readonly port?: number
  /** Ports tried from `port` on when it is taken (default 1: only `port`); `port` 0 always gets a free one. */
  readonly portAttempts?: number
  /** Built viewer directory; missing is allowed (then only the stream works). */
  readonly distDir?: string
  /**
   * The offline bundle's template the page's Share… fetches (`/dsh-lens-bundle.html`); default
   * `dist-bundle/dsh-lens-bundle.html` beside the built viewer.
   */
  readonly bundleTemplate?: string
  readonly token?: string
  readonly allowOrigins?: readonly string[]
  readonly pollMs?: number
  readonly heartbeatMs?: number
  readonly deadMs?: number
  readonly highWaterBytes?: number
  readonly maxBatchEvents?: number
  readonly maxBatchBytes?: number
  readonly defaultWindow?: number
  readonly maxWindow?: number
  readonly ringBytes?: number
  /** Open stream connections allowed from one remote address (default 16); more are refused with 429. */
  readonly maxConnectionsPerPeer?: number
  /** Subscriptions allowed on one connection (default 32); more get a non-fatal `too-many-subscriptions`. */
  readonly maxSubscriptions?: number
  /** A socket whose unread bytes stay above the high-water mark this long is cut off as a slow consumer (default 15 s). */
  readonly stallMs?: number
  /** One line per refusal or cut-off (serve prints them to stderr). */
  readonly log?: (line: string) => void
  /**
   * Search the served sessions' text from the home (`content-search`): the content index lives in this directory
   * (dsh-lens's folder in the user's cache directory). Absent: `watch-index` and `content-search` answer the state
   * `unavailable`, with why (never an error).
   */
  readonly contentIndex?: { readonly cacheDir: string }
  /** Attach to a dsh web host as a second source (`--dsh`): its sessions are listed and followed through it. */
  readonly dsh?: {
    readonly url: URL
    readonly backoff?: BackoffOptions
    /** `maxMessages` per history page. */
    readonly pageMessages?: number
  }
}

/** A refusal or a cut-off, kept (the last 200) for diagnostics, the soak and tests. */
export interface Incident {
  readonly at: number
  readonly peer: string
  readonly what: string
}

export interface LensServer {
  readonly port: number
  readonly host: string
  readonly token: string
  /** `http://host:port` (the server's own origin). */
  readonly origin: string
  readonly streamUrl: string
  /** The URL to open in a browser, token included (the Connect flow's `?ws=…&token=…`). */
  readonly viewerUrl: string
  /** The sessions home's URL with the token, used once to sign the browser in (`?session=` opens one session). */
  signInUrl(sessionId?: string): string
  connections(): ConnectionStats[]
  /** Recent refusals and cut-offs, oldest first. */
  incidents(): readonly Incident[]
  /** The files being followed right now (diagnostics, tests). */
  tails(): readonly SessionTail[]
  /** Resolves once the sessions list's first refresh (headers, at start-up) is done (the bench, tests). */
  sessionsListed(): Promise<void>
  /** The link to the dsh web host, when the server was started with one. */
  readonly dshWeb: DshWebUpstream | undefined
  close(): Promise<void>
}

export async function startLensServer(options: LensServerOptions): Promise<LensServer> {
  const host = options.host ?? '127.0.0.1'
  const token = options.token ?? newToken()
  const checksum = await loadContentChecksum()
  const guard = await PathGuard.create(options.roots, { allowMissing: options.allowMissingRoots === true })
  let distGuard: PathGuard | undefined
  try {
    distGuard = options.distDir === undefined ? undefined : await PathGuard.create([options.distDir])
  } catch {
    distGuard = undefined
  }
  const distDir = distGuard?.roots[0] ?? options.distDir ?? 'dist'
  const registry = new TailRegistry({
    pollMs: options.pollMs ?? 300,
    checksum,
    ringBytes: options.ringBytes ?? 8 * 1024 * 1024,
    readChunkBytes: 1024 * 1024,
  })
  const catalog = new SessionCatalog(guard, checksum, {
    ...(options.catalogPollMs === undefined ? {} : { pollMs: options.catalogPollMs }),
    ...(options.rateCard === undefined ? {} : { card: options.rateCard }),
  })
  // Read the headers and start the scan now, while the browser starts: the page's first list is then answered at once.
  const listed = catalog.refresh().then(
    () => catalog.prescan(),
    () => undefined,
  )
  const connections = new Set<StreamConnection>()
  const policy: { -readonly [K in keyof TrustPolicy]: TrustPolicy[K] } = {
    token,
    port: 0,
    extraHosts: extraHostsFor(host),
    extraOrigins: options.allowOrigins ?? [],
  }
  const heartbeatMs = options.heartbeatMs ?? 10_000
  const incidents: Incident[] = []
  const note = (peer: string, what: string): void => {
    incidents.push({ at: Date.now(), peer, what })
    if (incidents.length > 200) incidents.shift()
    options.log?.(`${new Date().toISOString()} ${peer} ${what}`)
  }
  const upstream =
    options.dsh === undefined
      ? undefined
      : new DshWebUpstream({
          base: options.dsh.url,
          ...(options.dsh.backoff === undefined ? {} : { backoff: options.dsh.backoff }),
          ...(options.dsh.pageMessages === undefined ? {} : { pageMessages: options.dsh.pageMessages }),
          // A session the server also serves from disk keeps its real header (createdAt, seedLength, ...).
          diskHeader: async (sessionId) => {
            const path = catalog.pathOf(sessionId)
            const real = path === undefined ? undefined : await guard.resolveFile(path)
            const header = real === undefined ? null : (await readLogHeader(real, checksum)).header
            return header === null ? undefined : JSON.stringify(header)
          },
          note: (what) => note(options.dsh?.url.host ?? 'dsh-web', what),
        })
  const contentSearch =
    options.contentIndex === undefined
      ? noContentSearch(NO_CONTENT_INDEX)
      : new ContentSearchRoom({
          roots: guard.roots,
          cacheDir: options.contentIndex.cacheDir,
          note: (what) => note('index', what),
        })
  const files = new FileSources(catalog, guard, registry)
  const ctx: StreamContext = {
    // With a dsh web host the connections list and follow its sessions too: decided here, once.
    sources: upstream === undefined ? files : new HostAndFileSources(files, upstream, new MergedSessions(catalog, upstream)),
    limits: {
      highWaterBytes: options.highWaterBytes ?? 8 * 1024 * 1024,
      maxBatchEvents: options.maxBatchEvents ?? 500,
      maxBatchBytes: options.maxBatchBytes ?? 1024 * 1024,
      checksum,
    },
    serverId: randomBytes(8).toString('hex'),
    heartbeatMs,
    deadMs: options.deadMs ?? Math.max(30_000, heartbeatMs * 3),
    defaultWindow: options.defaultWindow ?? 2000,
    maxWindow: options.maxWindow ?? 20_000,
    maxSubscriptions: options.maxSubscriptions ?? 32,
    stallMs: options.stallMs ?? 15_000,
    contentSearch,
    note,
  }

  const wss = new WebSocketServer({
    noServer: true,
    // A hard cap well above the protocol limit: messages between the two get a clear reason from StreamConnection.
    maxPayload: WS_MAX_PAYLOAD_BYTES,
    handleProtocols: selectProtocol,
    perMessageDeflate: false,
  })
  // Set once the port is known (before any request can arrive): the policy names exactly this server's stream.
  const csp: { header?: string } = {}
  const server = createServer(
    pageRequestHandler({
      policy,
      sessionsHome: options.sessionsHome === true,
      // The page prices with the card built into it unless told otherwise: told only when this card is another one.
      rateCard:
        options.rateCard === undefined || options.rateCard === builtInRateCard() ? undefined : JSON.stringify(options.rateCard),
      distDir,
      distGuard,
      bundleTemplate: options.bundleTemplate ?? join(dirname(distDir), 'dist-bundle', BUNDLE_TEMPLATE_FILE),
      contentSecurityPolicy: () => csp.header,
      note,
    }),
  )
  server.on(
    'upgrade',
    streamUpgradeHandler({
      policy,
      wss,
      maxPerPeer: options.maxConnectionsPerPeer ?? 16,
      note,
      accept: (ws, peer) => {
        const connection = new StreamConnection(ws, ctx, peer)
        connections.add(connection)
        ws.on('close', () => connections.delete(connection))
      },
    }),
  )

  await listenWithFallback(server, host, options.port ?? 0, options.portAttempts ?? 1)
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  policy.port = port
  const origin = originOf(host, port)
  const streamUrl = `${origin.replace(/^http/, 'ws')}${STREAM_PATH}`
  // `:` and `/` are legal in a query, so the stream URL stays readable; the token is base64url.
  const viewerUrl = `${origin}/?ws=${streamUrl}&token=${token}`
  csp.header = serverPolicy(streamUrl)
  upstream?.start()

  return {
    port,
    host,
    token,
    origin,
    streamUrl,
    viewerUrl,
    signInUrl: (sessionId) =>
      `${origin}/?${sessionId === undefined ? '' : `session=${encodeURIComponent(sessionId)}&`}token=${token}`,
    connections: () => [...connections].map((c) => c.stats()),
    incidents: () => [...incidents],
    tails: () => registry.list(),
    sessionsListed: () => listed,
    dshWeb: upstream,
    async close() {
      await upstream?.close()
      for (const c of connections) c.terminate()
      connections.clear()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      catalog.close()
      await contentSearch.close()
      await registry.closeAll()
    },
  }
}
