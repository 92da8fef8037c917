/**
 * Messages between the main thread and the lineage worker (`lineage.worker.ts`), which scans a set of logs for the
 * sessions tree. Separate from the lens worker's protocol: the lens worker holds the one log being viewed, this one
 * holds nothing after answering.
 */

import type { SeedCheck, SessionHeader, SessionTree } from '../core/index.ts'

export type LineageRequest = { readonly type: 'scan'; readonly id: number; readonly sources: readonly BundleSource[] }

export type LineageResponse =
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | { readonly type: 'result'; readonly id: number; readonly result: BundleResult }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }

export interface BundleSource {
  /** Path as the user gave it (a directory drop or picker gives relative paths). */
  readonly path: string
  readonly blob: Blob
}

export interface BundleSession {
  /** Unique key: the path, or `<zip path>/<entry name>`. */
  readonly key: string
  readonly file: File
  readonly header: SessionHeader | null
  readonly eventCount: number
}

export interface BundleResult {
  readonly sessions: readonly BundleSession[]
  readonly tree: SessionTree
  /** Seed check per session key, for every session with a `seedLength` whose parent is loaded. */
  readonly seeds: Readonly<Record<string, SeedCheck>>
  /** Inputs that are not session logs (or could not be read), with why. */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly why: string }>
}

/**
 * What the page may ask the lineage worker: scan sources for the sessions tree. The store holds one (the entry makes
 * it: worker/lineage-client.ts); tests give their own.
 */
export interface LineageClient {
  /** Scan `sources`; `progress` as files are read. Rejects with the worker's message when the scan fails. */
  scan(sources: readonly BundleSource[], progress: (done: number, total: number) => void): Promise<BundleResult>
}
