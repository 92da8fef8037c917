/** Worker entry: decoding and folding run here, never on the main thread. The loop itself is in `lens-host.ts`. */

import { createLensHost } from './lens-host.ts'
import { createSummaryEncoder } from './summary-delta.ts'

const scope = self as unknown as DedicatedWorkerGlobalScope
// Each replacement crosses to the main thread once: summaries carry only the new ones (summary-delta.ts).
const encode = createSummaryEncoder()
const handle = createLensHost((message, transfer) => scope.postMessage(encode(message), transfer))
scope.onmessage = (event: MessageEvent<unknown>) => handle(event.data)
