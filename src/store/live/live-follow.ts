/**
 * One followed session fed into the store: a subscription to it, whose full snapshots (first open, reset, epoch change)
 * start a fresh live feed in the lens worker and whose resumes continue the current one. Appends go straight to the
 * worker; the status, defects, resets and errors go to `liveView`. When the worker's decoded-bytes budget closed the
 * feed (`LogSummary.sizeBudget`), following stops and says why.
 */

import type { SourceRef } from '../../live/protocol.ts'
import type { LiveSubscription, TailClient } from '../../live/tail-client.ts'
import type { LiveFeed } from '../slices/source-slice.ts'
import { patchLive, type LiveStoreApi, type LiveView } from './live-view.ts'

/** Stream defects kept for the status line (the server itself tells at most 100 per file). */
const MAX_DEFECTS = 100

export class LiveFollow {
  /** The last seq appended to the feed (the status line shows it, paced). */
  lastSeq = -1
  /** The load generation of this follower's own feed (a different one is another source taking over). */
  ownGeneration = -1
  private feed: LiveFeed | null = null
  private subscription: LiveSubscription | null = null

  constructor(
    private readonly store: LiveStoreApi,
    private readonly client: TailClient,
    /** A new feed started: the open session's title and project may be set now. */
    private readonly feedStarted: () => void,
  ) {}

  /** Whether a feed is open (its title and project belong to the store's source). */
  get feeding(): boolean {
    return this.feed !== null
  }

  /** Follow `sessionId` from `source`, dropping what was followed before. */
  start(sessionId: string, source: SourceRef): void {
    this.stop()
    this.subscription = this.client.subscribe('view', source, {
      onSnapshot: (info) => {
        if (info.mode === 'full' || this.feed === null) {
          this.patch({ defects: [] })
          this.feed?.cancel()
          // Before the call: the store's listeners hear the new generation while it runs.
          this.ownGeneration = this.store.getState().loadGeneration + 1
          this.feed = this.store.getState().startLiveFeed(info.sessionId ?? sessionId)
          this.feed.append(info.headerLine + '\n')
          this.feedStarted()
        }
        this.lastSeq = info.fromSeq - 1
      },
      // Caught up with the file as it was: a deep link's `#seq=` can be applied once the worker has folded this far.
      onLive: (lastSeq) => this.feed?.settle(lastSeq),
      onAppend: (batch) => {
        // The worker's decoded-bytes budget closed the feed (LogSummary.sizeBudget): stop following instead of
        // receiving appends it drops; the size-budget banner and this error say so.
        const cut = this.store.getState().summary?.sizeBudget ?? null
        if (cut !== null && this.feed !== null) {
          this.subscription?.unsubscribe()
          this.subscription = null
          this.feed = null
          this.patch({
            error: `stopped following: the log passed the viewer's budget of ${cut.budgetBytes} decoded bytes after ${cut.events} events`,
          })
          return
        }
        this.feed?.append(batch.lines.join('\n') + '\n')
        this.lastSeq = batch.toSeq
      },
      onReset: () => {
        // The old feed's events are void; the full snapshot that follows starts a new one.
        this.feed?.cancel()
        this.feed = null
        this.lastSeq = -1
        patchLive(this.store, (view) => ({ resets: view.resets + 1 }))
      },
      onWriterStatus: (status) =>
        this.patch({
          turnOpen: status.turnOpen,
          writer: status.writer,
          ...(status.source === 'dsh-web'
            ? { upstream: status.upstream ?? null, title: status.title ?? null, turnOpen: status.running ?? status.turnOpen }
            : {}),
        }),
      onError: (error) => {
        if (error.code === 'corrupt' && error.fatal === false) {
          patchLive(this.store, (view) => ({ defects: [...view.defects, error].slice(-MAX_DEFECTS) }))
        } else this.patch({ error: `${error.code}: ${error.message}` })
      },
    })
  }

  /** Stop following, leaving the store's log as it is. */
  stop(): void {
    this.subscription?.unsubscribe()
    this.subscription = null
    this.feed?.cancel()
    this.feed = null
    this.lastSeq = -1
  }

  /** The page is closing the connection: end the feed (what it holds stays inspectable). */
  end(): void {
    this.subscription?.unsubscribe()
    this.subscription = null
    this.feed?.end()
    this.feed = null
  }

  private patch(change: Partial<LiveView>): void {
    patchLive(this.store, change)
  }
}
