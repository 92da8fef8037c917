/**
 * What the page may ask the lens worker, as one interface: the store and the panes hold a `LensClient`; the worker's
 * own client (worker/worker-client.ts) and the in-thread one for tests implement it.
 */

import type { CursorSnapshot } from './log-summary.ts'
import type { LensResponse, LogSlotName, QueryRequest, QueryResults } from './messages.ts'

export type QueryType = QueryRequest['type']
/** A query's arguments: its request without the envelope. */
export type QueryArgs<T extends QueryType> = Omit<Extract<QueryRequest, { type: T }>, 'v' | 'id' | 'type'>

/** Load-level events the store listens to (progress, summaries, failures) plus coalesced snapshots. */
export type ClientEvent =
  Extract<LensResponse, { loadId: number }> | { readonly type: 'snapshot'; readonly snapshot: CursorSnapshot }

export interface LensClient {
  /** Read a File in the worker, into its main log or the Compare view's `other`; returns the load id. */
  loadFile(file: File, slot?: LogSlotName): number
  /** Fetch a same-origin URL in the worker and fold it as it downloads; returns the load id (see `load-url`). */
  loadUrl(url: string, label: string, name: string): number
  /** Start a byte stream (a live source); feed it with `pushChunk`, close with `endStream`. */
  beginStream(name: string, totalBytes: number | null, live: boolean, slot?: LogSlotName): number
  pushChunk(loadId: number, bytes: Uint8Array): void
  endStream(loadId: number): void
  cancel(loadId: number): void
  query<T extends QueryType>(type: T, args: QueryArgs<T>): Promise<QueryResults[T]>
  /** Ask for the cursor state; answers arrive as `snapshot` events, superseded requests are dropped. */
  requestState(index: number): void
  subscribe(listener: (event: ClientEvent) => void): () => void
  dispose(): void
}
