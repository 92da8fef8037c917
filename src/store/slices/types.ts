/** The combined store type and the slice-creator signature shared by every slice. */

import type { StateCreator } from 'zustand/vanilla'
import type { CursorSlice } from './cursor-slice.ts'
import type { LayoutSlice } from './layout-slice.ts'
import type { RowsSlice } from './rows-slice.ts'
import type { SelectionSlice } from './selection-slice.ts'
import type { SourceSlice } from './source-slice.ts'
import type { SearchSlice } from './search-slice.ts'
import type { RequestSlice } from './request-slice.ts'
import type { ReplaySlice } from './replay-slice.ts'
import type { LensClient } from '../../protocol/lens-client.ts'
import type { LineageClient } from '../../protocol/lineage.ts'
import type { BundleSlice } from './bundle-slice.ts'
import type { ExportSlice } from './export-slice.ts'
import type { LiveSlice } from './live-slice.ts'
import type { SecretsSlice } from './secrets-slice.ts'
import type { ShareSlice } from './share-slice.ts'
import type { CompareSlice } from './compare-slice.ts'
import type { CostSlice } from './cost-slice.ts'
import type { HomeSearchSlice } from './home-search-slice.ts'
import type { LiveConnection } from '../live/live-view.ts'

export type LensState = SourceSlice &
  CursorSlice &
  SelectionSlice &
  LayoutSlice &
  RowsSlice &
  SearchSlice &
  RequestSlice &
  ReplaySlice &
  BundleSlice &
  LiveSlice &
  ExportSlice &
  SecretsSlice &
  ShareSlice &
  CompareSlice &
  CostSlice &
  HomeSearchSlice

/** The clients a page's store is made with (the entry makes them; tests give their own). */
export interface LensClients {
  /** The lens worker: loads and queries. */
  readonly lens: LensClient
  /** The lineage worker: scans a set of logs for the sessions tree. */
  readonly lineage: LineageClient
  /** The companion server, on a page opened by `?ws=` or served by `dsh-lens` (null: none). */
  readonly live: LiveConnection | null
}

/** A slice creator, given the page's clients (the data lives behind them, not in the store). */
export type LensSliceCreator<T> = (clients: LensClients) => StateCreator<LensState, [], [], T>
