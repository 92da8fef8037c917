/**
 * Messages between the main thread and the lineage worker (`lineage.worker.ts`), which scans a set of logs for the
 * sessions tree. Separate from the lens worker's protocol: the lens worker holds the one log being viewed, this one
 * holds nothing after answering.
 */

import type { BundleResult, BundleSource } from './session-bundle.ts'

export type LineageRequest = { readonly type: 'scan'; readonly id: number; readonly sources: readonly BundleSource[] }

export type LineageResponse =
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | { readonly type: 'result'; readonly id: number; readonly result: BundleResult }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
