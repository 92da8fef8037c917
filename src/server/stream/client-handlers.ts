/**
 * What a connection does with each client message: one handler per message type, typed by the `ClientMessage` union
 * (like the worker's query table, worker/queries.ts), so a message added to dsh-viewer.v1 without a handler, or a
 * handler reading the wrong shape, fails to compile.
 */

import { PROTOCOL_VERSION, type ClientMessage, type ErrorCode, type ServerMessage, type SourceRef } from '../../live/protocol.ts'
import type { StreamContext } from './stream-context.ts'
import type { Subscription } from './subscription.ts'

/** The connection a handler acts on: its state and its replies. */
export interface ClientScope {
  readonly ctx: StreamContext
  /** Whether `hello` was received. */
  greeted: boolean
  send(message: ServerMessage): void
  error(code: ErrorCode, message: string, extra?: { sub?: string; req?: string }): void
  fatal(code: ErrorCode, message: string): void
  subscribe(sub: string, source: SourceRef, fromSeq: number, epoch: string | undefined, window: number | undefined): Promise<void>
  subscription(sub: string): Subscription | undefined
  drop(sub: string): void
  watchSessions(req: string): Promise<void>
  unwatchSessions(req: string): void
  watchIndex(req: string): void
  unwatchIndex(req: string): void
}

type ClientType = ClientMessage['type']
type ClientHandler<T extends ClientType> = (on: ClientScope, message: Extract<ClientMessage, { type: T }>) => Promise<void> | void

const CLIENT_HANDLERS: { readonly [T in ClientType]: ClientHandler<T> } = {
  hello: async (on, message) => {
    if (on.greeted) return on.error('bad-request', 'hello was already received')
    if (message.protocol !== PROTOCOL_VERSION) {
      return on.fatal(
        'unsupported-protocol',
        `this server speaks dsh-viewer protocol ${PROTOCOL_VERSION}, not ${message.protocol}`,
      )
    }
    on.greeted = true
    const ctx = on.ctx
    on.send({
      type: 'welcome',
      protocol: PROTOCOL_VERSION,
      server: 'dsh-lens-serve/0.1',
      serverId: ctx.serverId,
      heartbeatMs: ctx.heartbeatMs,
      defaultWindow: ctx.defaultWindow,
      maxWindow: ctx.maxWindow,
      maxBatchEvents: ctx.limits.maxBatchEvents,
      maxBatchBytes: ctx.limits.maxBatchBytes,
    })
    for (const r of message.resume ?? []) await on.subscribe(r.sub, r.source, r.lastSeq + 1, r.epoch, r.window)
  },
  list: async (on, message) => on.send({ type: 'sessions', req: message.req, ...(await on.ctx.sources.list()) }),
  'watch-sessions': (on, message) => on.watchSessions(message.req),
  'unwatch-sessions': (on, message) => on.unwatchSessions(message.req),
  'content-search': async (on, message) =>
    on.send({
      type: 'content-hits',
      req: message.req,
      ...(await on.ctx.contentSearch.search(message.query, message.limit ?? 20)),
    }),
  'watch-index': (on, message) => on.watchIndex(message.req),
  'unwatch-index': (on, message) => on.unwatchIndex(message.req),
  subscribe: (on, message) => on.subscribe(message.sub, message.source, message.fromSeq ?? 0, message.epoch, message.window),
  ack: (on, message) => {
    const sub = on.subscription(message.sub)
    if (sub === undefined) return on.error('bad-request', `ack for unknown sub "${message.sub}"`, { sub: message.sub })
    sub.ack(message.seq)
  },
  unsubscribe: (on, message) => on.drop(message.sub),
  ping: (on, message) => on.send({ type: 'pong', t: message.t }),
  pong: () => undefined,
}

export function handleClientMessage(on: ClientScope, message: ClientMessage): Promise<void> | void {
  // The table is keyed by the message's own type, so this handler takes exactly this message.
  const handler = CLIENT_HANDLERS[message.type] as ClientHandler<ClientType>
  return handler(on, message as never)
}
