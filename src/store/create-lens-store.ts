/**
 * `createLensStore(clients)`: the page's one vanilla zustand store, combined from the slices and made once at start
 * (start-lens.ts) with the clients it talks through: the lens worker, the lineage worker and, on a page that follows
 * the companion server, its live connection. Components read it through `useLensStore` and act through its actions.
 */

import { createStore, type StoreApi } from 'zustand/vanilla'
import { createCursorSlice } from './slices/cursor-slice.ts'
import { createLayoutSlice } from './slices/layout-slice.ts'
import { createRowsSlice } from './slices/rows-slice.ts'
import { createSelectionSlice } from './slices/selection-slice.ts'
import { createSourceSlice } from './slices/source-slice.ts'
import { createSearchSlice } from './slices/search-slice.ts'
import { createRequestSlice } from './slices/request-slice.ts'
import { createReplaySlice } from './slices/replay-slice.ts'
import { createBundleSlice } from './slices/bundle-slice.ts'
import { createExportSlice } from './slices/export-slice.ts'
import { createLiveSlice } from './slices/live-slice.ts'
import { createSecretsSlice } from './slices/secrets-slice.ts'
import { createShareSlice } from './slices/share-slice.ts'
import { createCompareSlice } from './slices/compare-slice.ts'
import { createCostSlice } from './slices/cost-slice.ts'
import { createHomeSearchSlice } from './slices/home-search-slice.ts'
import type { LensClients, LensState } from './slices/types.ts'
import type { LensClient } from '../protocol/lens-client.ts'
import type { LineageClient } from '../protocol/lineage.ts'

export type { LensClients, LensState } from './slices/types.ts'
export type LensStore = StoreApi<LensState> & { readonly client: LensClient }

/** A store made without a lineage client (most tests): opening a bundle says so instead of scanning. */
const NO_LINEAGE: LineageClient = {
  scan: () => Promise.reject(new Error('this page has no lineage worker')),
}

/**
 * @param clients `lens`: the worker proxy that owns the data (`createWorkerClient()` in the app,
 * `createInThreadClient()` in tests); `lineage`: the sessions bundle's scanner (`createLineageClient()`); `live`: the
 * companion server's client and the page's parameters, when the page follows one (its `startLive()` connects).
 */
export function createLensStore(clients: Pick<LensClients, 'lens'> & Partial<LensClients>): LensStore {
  const all: LensClients = { lineage: NO_LINEAGE, live: null, ...clients }
  const store = createStore<LensState>()((...a) => ({
    ...createSourceSlice(all)(...a),
    ...createCursorSlice(all)(...a),
    ...createSelectionSlice(all)(...a),
    ...createLayoutSlice(all)(...a),
    ...createRowsSlice(all)(...a),
    ...createSearchSlice(all)(...a),
    ...createRequestSlice(all)(...a),
    ...createReplaySlice(all)(...a),
    ...createBundleSlice(all)(...a),
    ...createLiveSlice(all)(...a),
    ...createHomeSearchSlice(all)(...a),
    ...createExportSlice(all)(...a),
    ...createSecretsSlice(all)(...a),
    ...createShareSlice(all)(...a),
    ...createCompareSlice(all)(...a),
    ...createCostSlice(all)(...a),
  }))
  return Object.assign(store, { client: all.lens })
}
