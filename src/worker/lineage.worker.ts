/** The lineage worker: unzips and scans a set of logs for the sessions tree (see view/session-bundle.ts). */

import { loadContentChecksum } from '../core/index.ts'
import type { LineageRequest, LineageResponse } from '../protocol/lineage.ts'
import { scanBundle } from '../view/session-bundle.ts'

const checksum = loadContentChecksum()
const scope = self as unknown as DedicatedWorkerGlobalScope
const post = (message: LineageResponse): void => scope.postMessage(message)

scope.onmessage = (event: MessageEvent<LineageRequest>) => {
  const { id, sources } = event.data
  void (async () => {
    try {
      const result = await scanBundle(sources, await checksum, (done, total) => post({ type: 'progress', id, done, total }))
      post({ type: 'result', id, result })
    } catch (error) {
      post({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) })
    }
  })()
}
