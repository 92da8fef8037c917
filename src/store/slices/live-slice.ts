/**
 * The companion server in the page's store: `liveView` (the connection, the sessions list, the followed session) and
 * the actions components call. The store makes the page's `LiveController` (store/live/) from the connection the entry
 * gave it; a page that follows no server has none, its `liveView.mode` is null and the actions do nothing.
 *
 * The controller's code (and the stream client's, when the entry hands a loader) is imported only on a page that
 * follows a server: a `?log=` page never evaluates it while it boots (issue 35). The actions run in the order they were
 * called, once it is there.
 */

import { initialLiveView, patchLive, type LiveView } from '../live/live-view.ts'
import type { LiveController } from '../live/live-controller.ts'
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
    const controller: Promise<LiveController> | null =
      live === null
        ? null
        : Promise.all([
            import('../live/live-controller.ts'),
            typeof live.client === 'function' ? live.client() : live.client,
          ]).then(([{ LiveController }, client]) => new LiveController(api, { client, params: live.params }))
    // A chunk that cannot load (the server stopped, a new build replaced it) is said where the connection's state is.
    controller?.catch((error: unknown) => {
      patchLive(api, { status: 'closed', error: `the live view could not load: ${String(error)}` })
    })
    const withController = (act: (c: LiveController) => void): void => {
      void controller?.then(act)
    }
    return {
      liveView: initialLiveView(live?.params ?? null),
      startLive: () => withController((c) => c.start()),
      stopLive: () => withController((c) => c.stop()),
      openLiveSession: (sessionId) => withController((c) => c.open(sessionId)),
      goHome: () => withController((c) => c.home()),
      followNewest: () => {
        const length = get().summary?.length ?? 0
        if (length > 0) get().setCursor(length - 1)
      },
      setPickerOpen: (open) => withController((c) => c.setPickerOpen(open)),
      refreshSessions: () => withController((c) => void c.refreshSessions()),
    }
  }
