/**
 * The companion server in the page's store: `liveView` (the connection, the sessions list, the followed session) and
 * the actions components call. The store makes the page's `LiveController` (store/live/) from the connection the entry
 * gave it; a page that follows no server has none, its `liveView.mode` is null and the actions do nothing.
 */

import { LiveController } from '../live/live-controller.ts'
import { initialLiveView, type LiveView } from '../live/live-view.ts'
import type { LensSliceCreator } from './types.ts'

export interface LiveSlice {
  liveView: LiveView
  /** Connect and, on a `?session=` page, open that session (the entry calls it once the store exists). */
  startLive: () => void
  /** Close the connection (tests; a page keeps it until it unloads). */
  stopLive: () => void
  /** Follow one of the server's sessions (a served page pushes a history entry: Back returns home). */
  openLiveSession: (sessionId: string) => void
  /** A served page: close the session and show the sessions home. */
  goHome: () => void
  /** Back to following: the cursor jumps to the newest event and stays there while the log grows. */
  followNewest: () => void
  setPickerOpen: (open: boolean) => void
  /** Ask the server for its sessions list again. */
  refreshSessions: () => void
}

export const createLiveSlice: LensSliceCreator<LiveSlice> =
  ({ live }) =>
  (_set, get, api) => {
    const controller = live === null ? null : new LiveController(api, live)
    return {
      liveView: initialLiveView(live?.params ?? null),
      startLive: () => controller?.start(),
      stopLive: () => controller?.stop(),
      openLiveSession: (sessionId) => controller?.open(sessionId),
      goHome: () => controller?.home(),
      followNewest: () => {
        const length = get().summary?.length ?? 0
        if (length > 0) get().setCursor(length - 1)
      },
      setPickerOpen: (open) => controller?.setPickerOpen(open),
      refreshSessions: () => void controller?.refreshSessions(),
    }
  }
