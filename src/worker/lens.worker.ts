/** Worker entry: decoding and folding run here, never on the main thread. The loop itself is in `lens-host.ts`. */

import { createLensHost } from './lens-host.ts'

const scope = self as unknown as DedicatedWorkerGlobalScope
const handle = createLensHost((message, transfer) => scope.postMessage(message, transfer))
scope.onmessage = (event: MessageEvent<unknown>) => handle(event.data)
