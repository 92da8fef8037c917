/**
 * The selected event (by index) and the inspector's detail for it at the cursor. The counterpart in the other
 * pane comes from the worker's detail answer (`surfaceCounterpart`, `transcriptCounterparts`), never from here.
 */

import type { DetailTextChunk, DetailTextField, EventDetail } from '../../protocol/event-views.ts'
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
  /** A piece of an event's JSON (raw, or as on disk), for the inspector's "Show more". */
  detailText: (index: number, field: DetailTextField, offset: number, length: number) => Promise<DetailTextChunk | null>
  /** The whole of that JSON as a Blob made in the worker (the main thread never decodes a 10 MB string). */
  detailBlob: (index: number, field: DetailTextField) => Promise<Blob | null>
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
        if (get().summary === null) return
        const index = await get().indexOfSeq(seq)
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
      detailText: (index, field, offset, length) => client.query('detail-text', { index, field, offset, length }),
      detailBlob: (index, field) => client.query('detail-blob', { index, field }),
    }
  }
