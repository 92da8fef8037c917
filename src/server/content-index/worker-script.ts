/**
 * Starts one of the content index's worker threads by name. From the sources (tsx, the tests) the worker's `.ts`
 * file is loaded through tsx's loader; from the CLI bundle (dist-cli/), its own bundle `dsh-lens-<name>.cjs` beside
 * the one running (src/build/build-cli.ts builds both).
 */

import { Worker } from 'node:worker_threads'

export type WorkerName = 'extract-worker' | 'index-thread'

export function startWorker(name: WorkerName, workerData?: unknown): Worker {
  const here = import.meta.url
  if (/\.[mc]?ts$/.test(new URL(here).pathname)) {
    const url = JSON.stringify(new URL(`./${name}.ts`, here).href)
    return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${url}) })`, {
      eval: true,
      workerData,
    })
  }
  return new Worker(new URL(`./dsh-lens-${name}.cjs`, here), { workerData })
}
