/**
 * The lens client without a worker, for unit and component tests: the same protocol and the same host, in this
 * thread. A module of its own because it imports the whole host (decoder, fold, dagre): worker-client.ts is in the
 * page's entry bundle and must not pull that onto the main thread.
 */

import { createLensHost } from './lens-host.ts'
import type { OpenLogOptions } from '../view/open-log.ts'
import { createSummaryEncoder } from '../protocol/summary-delta.ts'
import { createClient } from './worker-client.ts'
import type { LensClient } from '../protocol/lens-client.ts'

/** Same protocol, same host, no worker: for tests (messages still go through a macrotask, as with a worker). */
export function createInThreadClient(options: OpenLogOptions = {}): LensClient {
  return createClient((receive) => {
    let open = true
    // Encoded as the worker does, so tests run the same summary deltas as the page.
    const encode = createSummaryEncoder()
    const handle = createLensHost((message) => {
      const wire = encode(message)
      setTimeout(() => open && receive(wire), 0)
    }, options)
    return {
      post: (message) => setTimeout(() => open && handle(message), 0),
      close: () => {
        open = false
      },
    }
  })
}
