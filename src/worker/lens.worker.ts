/** Worker entry: decoding and folding run here, never on the main thread. The loop itself is in `lens-host.ts`. */

import { createLensHost } from './lens-host.ts'
import { createSummaryEncoder } from '../protocol/summary-delta.ts'

const scope = self as unknown as DedicatedWorkerGlobalScope
// Each replacement crosses to the main thread once: summaries carry only the new ones (summary-delta.ts).
const encode = createSummaryEncoder()
/**
 * Test-only: an e2e spec lowers the decoded-bytes budget by serving this script with `self.__DSH_LENS_TEST_BUDGET__ = N;`
 * in front (e2e/support/app.ts `lowerDecodedBudget`). Neither a page nor a log can set a worker's globals; anything
 * but a positive number is ignored, so the built app always runs with DECODED_BYTES_BUDGET.
 */
const testBudget = (scope as { __DSH_LENS_TEST_BUDGET__?: unknown }).__DSH_LENS_TEST_BUDGET__
const options = typeof testBudget === 'number' && testBudget > 0 ? { decodedBytesBudget: testBudget } : {}
const handle = createLensHost((message, transfer) => scope.postMessage(encode(message), transfer), options)
scope.onmessage = (event: MessageEvent<unknown>) => handle(event.data)
