/**
 * A worker thread of the extraction pool (extract-pool.ts): reads the logs it is sent with the core's ContentLog and
 * posts their documents back. The thread that writes the index never decodes while the pool reads.
 */

import { parentPort } from 'node:worker_threads'
import { loadContentChecksum } from '../../core/index.ts'
import type { ExtractReply, ExtractRequest } from './extract-pool.ts'
import { packWords, readForIndex } from './log-reading.ts'

const port = parentPort
if (port !== null) {
  const checksum = loadContentChecksum()
  port.on('message', (request: ExtractRequest) => {
    void (async (): Promise<{ reply: ExtractReply; transfer: ArrayBuffer[] }> => {
      try {
        const { outcome } = await readForIndex(request.path, request.identity, await checksum, undefined)
        const packed = packWords(outcome)
        return { reply: { id: request.id, outcome: packed.outcome }, transfer: packed.transfer }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        return {
          reply: { id: request.id, error: { message: (error as Error).message, ...(code === undefined ? {} : { code }) } },
          transfer: [],
        }
      }
    })().then(({ reply, transfer }) => port.postMessage(reply, transfer))
  })
}
