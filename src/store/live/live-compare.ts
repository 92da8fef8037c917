/**
 * The Compare view's two sessions of the companion server (issue 38): one subscription each, read from the start to
 * where the session was when it was opened (`live`: caught up), then let go; a comparison is of two logs as they
 * were, not of logs that move under it. Run A's events fill the worker's main log, run B's the other
 * (`startCompareFeeds`). A session reset while it is read (replaced, truncated) starts both again.
 */

import type { SourceRef } from '../../live/protocol.ts'
import type { LiveSubscription, TailClient } from '../../live/tail-client.ts'
import type { LiveFeed } from '../slices/source-slice.ts'
import type { LiveStoreApi } from './live-view.ts'

export interface CompareSession {
  readonly sessionId: string
  readonly source: SourceRef
  readonly label: string
}

/** Resets tolerated before the view says the sessions keep changing under it. */
const MAX_RESTARTS = 3

export class LiveCompare {
  private subscriptions: LiveSubscription[] = []
  private restarts = 0

  constructor(
    private readonly store: LiveStoreApi,
    private readonly client: TailClient,
  ) {}

  start(a: CompareSession, b: CompareSession, restart = false): void {
    this.stop()
    this.restarts = restart ? this.restarts + 1 : 0
    const run = (s: CompareSession) => ({ label: s.label, source: { kind: 'session' as const, sessionId: s.sessionId } })
    const feeds = this.store.getState().startCompareFeeds(run(a), run(b), () => this.stop())
    const again = (): void => {
      if (this.restarts < MAX_RESTARTS) this.start(a, b, true)
      else this.store.getState().failCompare('the sessions kept changing while they were read: compare them again later')
    }
    this.subscriptions = [this.read('compare-a', a, feeds.a, again), this.read('compare-b', b, feeds.b, again)]
  }

  stop(): void {
    for (const s of this.subscriptions.splice(0)) s.unsubscribe()
  }

  private read(sub: string, session: CompareSession, feed: LiveFeed, again: () => void): LiveSubscription {
    let started = false
    const subscription = this.client.subscribe(sub, session.source, {
      onSnapshot: (info) => {
        // A resumed subscription (a reconnect) continues; a full snapshot after the first is another log.
        if (info.mode !== 'full') return
        if (started) return again()
        started = true
        feed.append(info.headerLine + '\n')
      },
      onAppend: (batch) => feed.append(batch.lines.join('\n') + '\n'),
      onLive: (lastSeq) => {
        feed.settle(lastSeq)
        feed.end()
        subscription.unsubscribe()
        this.subscriptions = this.subscriptions.filter((s) => s !== subscription)
      },
      onReset: () => again(),
      onError: (error) => {
        // A defect the server stepped over reaches the worker in the appends (the diagnostics say it); a fatal one ends.
        if (error.fatal) this.store.getState().failCompare(`${session.label}: ${error.message}`)
      },
    })
    return subscription
  }
}
