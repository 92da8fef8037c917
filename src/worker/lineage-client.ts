/**
 * The page's client of the lineage worker (`lineage.worker.ts`): one scan per call, answered by id. The entry makes it
 * with the lens worker's client; the worker itself starts on the first scan (most pages never open a bundle, and a
 * worker's start is a fetch and a module evaluation the first screen does not need), and holds nothing between scans.
 */

import type { LineageClient, LineageRequest, LineageResponse } from '../protocol/lineage.ts'

export function createLineageClient(): LineageClient {
  let worker: Worker | null = null
  let nextScan = 1
  return {
    scan(sources, progress) {
      worker ??= new Worker(new URL('./lineage.worker.ts', import.meta.url), { type: 'module', name: 'dsh-lens-lineage' })
      const w = worker
      const id = nextScan++
      return new Promise((resolve, reject) => {
        const onMessage = (event: MessageEvent<LineageResponse>): void => {
          const message = event.data
          if (message.id !== id) return
          if (message.type === 'progress') return progress(message.done, message.total)
          w.removeEventListener('message', onMessage)
          if (message.type === 'failed') reject(new Error(message.message))
          else resolve(message.result)
        }
        w.addEventListener('message', onMessage)
        w.postMessage({ type: 'scan', id, sources } satisfies LineageRequest)
      })
    },
  }
}
