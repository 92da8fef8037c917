/** The human transcript at the cursor: append-origin messages, and log-only events when the toggle is on. */

import { useCallback, useEffect, useState } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import {
  selectCacheVersion,
  selectCursor,
  selectDetail,
  selectSelected,
  selectShowLogOnly,
  selectSnapshot,
  selectLoadState,
} from '../../../store/selectors.ts'
import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { VirtualList } from '../../shared/VirtualList.tsx'
import { StreamingPreview } from './StreamingPreview.tsx'
import { TranscriptRow } from './TranscriptRow.tsx'
import { transcriptRowClass } from './transcript-rows.ts'

/** A first guess for unmeasured rows; real heights come from measuring each mounted row. */
const ROW_ESTIMATE_PX = 64

export function TranscriptPane() {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const snapshot = useLensStore(selectSnapshot)
  const showLogOnly = useLensStore(selectShowLogOnly)
  const cursor = useLensStore(selectCursor)
  const selected = useLensStore(selectSelected)
  const detail = useLensStore(selectDetail)
  const selectedFrom = useLensStore((s) => s.selectedFrom)
  // In a valid log seq === index, so a row whose summary is still on its way already knows its data-seq.
  const seqIsIndex = useLensStore((s) => s.summary?.seqIsIndex === true)
  const length = useLensStore((s) => s.summary?.length ?? 0)
  useLensStore(selectCacheVersion)
  const cache = store.getState().cache
  const list = showLogOnly ? 'all' : 'messages'
  const count = snapshot === null ? 0 : showLogOnly ? snapshot.allRowCount : snapshot.messageRowCount
  const counterparts = selectedFrom !== 'transcript' && detail !== null ? new Set(detail.transcriptCounterparts) : null

  // Stable per list: the virtualizer rebuilds its O(count) measurement table whenever this function changes. It also
  // walks every row's key whenever the count changes (each cursor move in a drag): numbers (the two lists apart by
  // sign), not a string built per row, which made a large log's drag tasks long.
  const itemKey = useCallback((row: number) => (list === 'all' ? row : -1 - row), [list])
  const onRange = useCallback((from: number, to: number) => store.getState().ensureTranscriptRows(list, from, to), [store, list])
  const indexAt = (row: number): number | undefined => cache.row(list, row)?.index
  // The row picked here, with the selection as it was at the pick. A row picked before the worker sent it (End,
  // PageDown or Home into rows not fetched yet) is selected as soon as it arrives (the scroll that picked it asks for
  // it) and is the active row meanwhile, so the next key moves on from it; it waits only while the selection is what
  // it was when picked, so a selection made meanwhile (here or elsewhere) wins.
  const [clickedRow, setClickedRow] = useState<{
    list: string
    row: number
    selected: typeof selected
    from: typeof selectedFrom
  } | null>(null)
  const waiting =
    clickedRow !== null && clickedRow.list === list && clickedRow.selected === selected && clickedRow.from === selectedFrom
  const waitingIndex = waiting ? indexAt(clickedRow.row) : undefined
  useEffect(() => {
    if (waitingIndex !== undefined) store.getState().select(waitingIndex, 'transcript')
  }, [waitingIndex, store])
  // The active row: the one picked here, or the counterpart of a selection made elsewhere (the worker says where).
  let activeRow: number | null = null
  if (waiting) activeRow = clickedRow.row
  else if (
    selected !== null &&
    selectedFrom === 'transcript' &&
    clickedRow?.list === list &&
    indexAt(clickedRow.row) === selected
  )
    activeRow = clickedRow.row
  else if (selected !== null && selectedFrom !== 'transcript') activeRow = detail?.counterpartRows?.[list] ?? null

  const toggle = (
    <>
      {/* The key to the thin bar under each row that reached the surface (LifespanBar). */}
      <span
        className="flex items-center gap-1 text-xs text-muted"
        data-testid="lifespan-legend"
        title="The bar under an entry spans the events during which the model was sent it (brighter while the cursor is inside); hover a bar for its seqs"
      >
        <span className="inline-block h-1 w-4 rounded-sm bg-lifespan" aria-hidden="true" />
        visible to the model
      </span>
      <label className="flex items-center gap-1 text-xs text-muted">
        <input type="checkbox" checked={showLogOnly} onChange={() => store.getState().toggleLogOnly()} />
        log-only events
      </label>
    </>
  )
  return (
    <PaneFrame title="Transcript" testId="transcript-pane" count={count} tools={toggle} className="relative h-full">
      <VirtualList
        count={count}
        label="Transcript entries"
        idPrefix={`transcript-${list}`}
        estimateSizePx={ROW_ESTIMATE_PX}
        itemKey={itemKey}
        itemSeq={(row) => {
          const index = indexAt(row)
          return index === undefined ? undefined : (cache.summary(index)?.seq ?? (seqIsIndex ? index : undefined))
        }}
        itemClassName={(row) => {
          const ref = cache.row(list, row)
          const summary = ref === undefined ? undefined : cache.summary(ref.index)
          return transcriptRowClass(
            ref?.index === selected,
            summary !== undefined && summary.seq !== null && counterparts?.has(summary.seq) === true,
          )
        }}
        renderItem={(row) => {
          const ref = cache.row(list, row)
          return (
            <TranscriptRow
              rowRef={ref}
              summary={ref === undefined ? undefined : cache.summary(ref.index)}
              cursor={cursor}
              length={length}
            />
          )
        }}
        activeIndex={activeRow}
        onActivate={(row) => {
          const index = indexAt(row)
          setClickedRow({ list, row, selected, from: selectedFrom })
          if (index !== undefined) store.getState().select(index, 'transcript')
        }}
        revealIndex={selectedFrom === 'transcript' ? null : activeRow}
        revealToken={detail}
        onRange={onRange}
        emptyText={snapshot === null ? (loadState === 'loading' ? 'Loading…' : 'No log loaded.') : 'No entries at this cursor.'}
      />
      <StreamingPreview />
    </PaneFrame>
  )
}
