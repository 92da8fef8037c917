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

export type LensState = SourceSlice &
  CursorSlice &
  SelectionSlice &
  LayoutSlice &
  RowsSlice &
  SearchSlice &
  RequestSlice &
  ReplaySlice

/** A slice creator; `client` is the worker proxy (the data lives behind it, not in the store). */
export type LensSliceCreator<T> = (client: LensClient) => StateCreator<LensState, [], [], T>
