/** The model surface at the cursor: nodes in model order, each as the message the model receives. */

import { useCallback } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import {
  selectCacheVersion,
  selectCursor,
  selectDetail,
  selectSelected,
  selectSnapshot,
  selectLoadState,
} from '../../../store/selectors.ts'
import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { VirtualList } from '../../shared/VirtualList.tsx'
import { SurfaceRow } from './SurfaceRow.tsx'
import { surfacePositionOf, surfaceRowClass } from './surface-rows.ts'
import { formatCount } from '../../shared/format-count.ts'

const ROW_ESTIMATE_PX = 72

export function SurfacePane() {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const snapshot = useLensStore(selectSnapshot)
  const cursor = useLensStore(selectCursor)
  const selected = useLensStore(selectSelected)
  const detail = useLensStore(selectDetail)
  const selectedFrom = useLensStore((s) => s.selectedFrom)
  const messageCount = snapshot?.messageCount ?? 0
  useLensStore(selectCacheVersion)
  const cache = store.getState().cache
  const seqs = snapshot?.surfaceSeqs
  const indices = snapshot?.surfaceIndices
  const count = seqs?.length ?? 0
  const counterpart = detail?.surfaceCounterpart ?? null
  const counterpartPosition = seqs === undefined ? null : surfacePositionOf(seqs, counterpart)
  const selectedPosition = indices === undefined || selected === null ? null : indexPosition(indices, selected)
  const activePosition = selectedPosition ?? counterpartPosition

  // Changes only with the surface itself: the virtualizer rebuilds its O(count) measurement table on every new key function.
  const itemKey = useCallback((i: number) => seqs?.[i] ?? i, [seqs])
  const onRange = useCallback(
    (from: number, to: number) => {
      if (indices === undefined) return
      store.getState().ensureSummaries(Array.from(indices.subarray(from, to)))
    },
    [store, indices],
  )

  return (
    <PaneFrame
      title="Model surface"
      testId="surface-pane"
      count={count}
      className="h-full"
      tools={<span className="text-xs text-muted">{formatCount(messageCount)} messages sent</span>}
    >
      <VirtualList
        count={count}
        label="Model surface nodes"
        idPrefix="surface"
        estimateSizePx={ROW_ESTIMATE_PX}
        itemKey={itemKey}
        itemSeq={(i) => seqs?.[i]}
        itemClassName={(i) => {
          const summary = indices === undefined ? undefined : cache.summary(indices[i] ?? -1)
          return surfaceRowClass(
            i === selectedPosition,
            i === counterpartPosition && selectedFrom !== 'surface',
            summary?.replace != null,
          )
        }}
        renderItem={(i) => (
          <SurfaceRow seq={seqs?.[i] ?? -1} summary={cache.summary(indices?.[i] ?? -1)} cursor={cursor} position={i} />
        )}
        activeIndex={activePosition}
        onActivate={(i) => {
          const index = indices?.[i]
          if (index !== undefined) store.getState().select(index, 'surface')
        }}
        revealIndex={selectedFrom === 'surface' ? null : activePosition}
        revealToken={detail}
        onRange={onRange}
        emptyText={
          snapshot === null ? (loadState === 'loading' ? 'Loading…' : 'No log loaded.') : 'The surface is empty at this cursor.'
        }
      />
    </PaneFrame>
  )
}

function indexPosition(indices: Int32Array, index: number): number | null {
  const at = indices.indexOf(index)
  return at === -1 ? null : at
}
