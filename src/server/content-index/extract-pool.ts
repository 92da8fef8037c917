/**
 * Logs read for the index on worker threads (extract-worker.ts), so a cold build decodes and folds on as many cores
 * as the machine has while the writing thread feeds SQLite: decoding is most of a build's time, and writing the
 * previous logs' documents overlaps it. Each worker reads one log at a time; `read` answers when that log's
 * documents are back.
 */

import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { FileIdentity, ReadOutcome } from './log-reading.ts'
import { startWorker } from './worker-script.ts'

export interface ExtractRequest {
  readonly id: number
  readonly path: string
  readonly identity: FileIdentity
}

export type ExtractReply =
  | { readonly id: number; readonly outcome: ReadOutcome }
  | { readonly id: number; readonly error: { readonly message: string; readonly code?: string } }

interface Job {
  readonly request: ExtractRequest
  resolve(outcome: ReadOutcome): void
  reject(error: Error): void
}

/** Worker threads for a machine: one per core, at most four (more only contend for the writer's). */
export function poolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()))
}

export class ExtractPool {
  private readonly idle: Worker[] = []
  private readonly busy = new Map<Worker, Job>()
  private readonly queue: Job[] = []
  private nextId = 0
  private closed = false

  constructor(size = poolSize()) {
    for (let k = 0; k < size; k++) {
      const worker = startWorker('extract-worker')
      worker.on('message', (reply: ExtractReply) => this.done(worker, reply))
      worker.on('error', (error) => this.failed(worker, error))
      this.idle.push(worker)
    }
  }

  read(path: string, identity: FileIdentity): Promise<ReadOutcome> {
    if (this.closed) return Promise.reject(new Error('the extraction pool is closed'))
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, path, identity }, resolve, reject })
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new Error('the extraction pool is closed'))
    const workers = [...this.idle, ...this.busy.keys()]
    for (const job of this.busy.values()) job.reject(new Error('the extraction pool is closed'))
    this.idle.length = 0
    this.busy.clear()
    await Promise.all(workers.map((w) => w.terminate()))
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker
      const job = this.queue.shift() as Job
      this.busy.set(worker, job)
      worker.postMessage(job.request)
    }
  }

  private done(worker: Worker, reply: ExtractReply): void {
    const job = this.busy.get(worker)
    if (job === undefined || job.request.id !== reply.id) return
    this.busy.delete(worker)
    this.idle.push(worker)
    if ('outcome' in reply) job.resolve(reply.outcome)
    else
      job.reject(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }))
    this.dispatch()
  }

  /** A worker that died takes its log down with it (said as that log's reason); the others go on. */
  private failed(worker: Worker, error: Error): void {
    const job = this.busy.get(worker)
    this.busy.delete(worker)
    job?.reject(error)
    if (this.closed) return
    // Replace it, so the pool keeps its size.
    const fresh = startWorker('extract-worker')
    fresh.on('message', (reply: ExtractReply) => this.done(fresh, reply))
    fresh.on('error', (e) => this.failed(fresh, e))
    this.idle.push(fresh)
    this.dispatch()
  }
}
