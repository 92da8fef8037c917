/**
 * The selected event (by index) and the inspector's detail for it at the cursor. The counterpart in the other
 * pane comes from the worker's detail answer (`surfaceCounterpart`, `transcriptCounterparts`), never from here.
 */

import type { EventDetail } from '../../protocol/event-views.ts'
import { indexOfSeqInSummary } from '../../protocol/log-summary.ts'
import type { LensSliceCreator } from './types.ts'

export type SelectionOrigin = 'transcript' | 'surface' | 'graph' | 'diagnostics' | 'inspector' | 'link'

export interface SelectionSlice {
  selected: number | null
  selectedFrom: SelectionOrigin | null
  detail: EventDetail | null
  select: (index: number | null, from: SelectionOrigin) => void
  /** Select the event holding `seq` (a link in the inspector, the URL); `moveCursor` also moves the cursor there. */
  selectSeq: (seq: number, from: SelectionOrigin, moveCursor: boolean) => Promise<void>
  /** Re-ask the worker for the selected event's detail (the cursor moved). */
  refreshDetail: () => void
}

export const createSelectionSlice: LensSliceCreator<SelectionSlice> =
  ({ lens: client }) =>
  (set, get) => {
    let request = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const fetchDetail = (): void => {
      const { selected, cursor, loadGeneration } = get()
      if (selected === null) return
      const mine = ++request
      client
        .query('detail', { index: selected, cursor })
        .then((detail) => {
          if (mine === request && get().loadGeneration === loadGeneration) set({ detail })
        })
        .catch((error: unknown) => console.error(error))
    }
    return {
      selected: null,
      selectedFrom: null,
      detail: null,
      select: (index, from) => {
        set({
          selected: index,
          selectedFrom: index === null ? null : from,
          detail: index === get().selected ? get().detail : null,
        })
        if (index !== null) fetchDetail()
      },
      selectSeq: async (seq, from, moveCursor) => {
        const summary = get().summary
        if (summary === null) return
        const index = indexOfSeqInSummary(summary, seq) ?? (await client.query('index-of-seq', { seq }))
        if (index < 0) return
        if (moveCursor) get().setCursor(index)
        get().select(index, from)
      },
      refreshDetail: () => {
        if (get().selected === null) return
        // During a drag the counterparts change every frame; one detail request per settled frame is enough.
        clearTimeout(timer)
        timer = setTimeout(fetchDetail, 16)
      },
    }
  }
