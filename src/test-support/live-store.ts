/**
 * A page's store following a companion server in Node, as the entry makes it (start-lens.ts): the in-thread lens
 * worker, and a TailClient on the `ws` package for the server's stream. `startLive()` connects; `stopLive()` closes.
 */

import { TailClient } from '../live/tail-client.ts'
import { createLensStore, type LensStore } from '../store/create-lens-store.ts'
import type { LiveParams } from '../store/live/live-view.ts'
import type { OpenLogOptions } from '../view/open-log.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import { wsFactory } from './live-test-kit.ts'

export function liveStore(params: LiveParams, lens: OpenLogOptions = {}): LensStore {
  const client = new TailClient({
    url: params.ws,
    ...(params.token === null ? {} : { token: params.token }),
    client: 'dsh-lens-viewer/0.1',
    webSocket: wsFactory(),
  })
  return createLensStore({ lens: createInThreadClient(lens), live: { client, params } })
}
