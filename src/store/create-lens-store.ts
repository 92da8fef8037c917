/** `createLensStore()`: one vanilla zustand store per `<LensProvider>`, combined from the slices. */

import { createStore, type StoreApi } from 'zustand/vanilla'
import { createCursorSlice } from './slices/cursor-slice.ts'
import { createLayoutSlice } from './slices/layout-slice.ts'
import { createRowsSlice } from './slices/rows-slice.ts'
import { createSelectionSlice } from './slices/selection-slice.ts'
import { createSourceSlice } from './slices/source-slice.ts'
import { createSearchSlice } from './slices/search-slice.ts'
import { createRequestSlice } from './slices/request-slice.ts'
import { createReplaySlice } from './slices/replay-slice.ts'
import type { LensState } from './slices/types.ts'
import type { LensClient } from '../protocol/lens-client.ts'

export type { LensState } from './slices/types.ts'
export type LensStore = StoreApi<LensState> & { readonly client: LensClient }

/**
 * @param client the worker proxy that owns the data (`createWorkerClient()` in the app, `createInThreadClient()` in tests).
 */
export function createLensStore(client: LensClient): LensStore {
  const store = createStore<LensState>()((...a) => ({
    ...createSourceSlice(client)(...a),
    ...createCursorSlice(client)(...a),
    ...createSelectionSlice(client)(...a),
    ...createLayoutSlice(client)(...a),
    ...createRowsSlice(client)(...a),
    ...createSearchSlice(client)(...a),
    ...createRequestSlice(client)(...a),
    ...createReplaySlice(client)(...a),
  }))
  return Object.assign(store, { client })
}
