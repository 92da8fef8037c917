/**
 * Main-thread proxy for the lens worker: request ids for queries, load ids for sources, transfer lists, and
 * coalescing of cursor queries (while a drag runs only the latest outstanding `state-at` is kept).
 * `createInThreadClient` (in-thread-client.ts, its own module so the page's bundle never holds the worker's code)
 * runs the same host in this thread for unit and component tests.
 */

import { createSummaryDecoder } from '../protocol/summary-delta.ts'
import { PROTOCOL_VERSION, parseResponse, type LensRequest, type LensResponse, type QueryResults } from '../protocol/messages.ts'
import type { ClientEvent, LensClient, QueryArgs, QueryType } from '../protocol/lens-client.ts'
export interface Port {
  post(message: LensRequest, transfer: Transferable[]): void
  close(): void
}

export function createClient(connect: (receive: (data: unknown) => void) => Port): LensClient {
  let nextId = 1
  let nextLoad = 1
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>()
  const listeners = new Set<(event: ClientEvent) => void>()
  let stateInFlight = false
  let stateWanted: number | null = null
  const emit = (event: ClientEvent): void => listeners.forEach((l) => l(event))

  const decode = createSummaryDecoder()
  const port = connect((data) => {
    let message: LensResponse
    try {
      message = decode(parseResponse(data))
    } catch (error) {
      console.error(error)
      return
    }
    if (message.type !== 'reply') return emit(message)
    const waiter = pending.get(message.id)
    pending.delete(message.id)
    if (message.ok) waiter?.resolve(message.result as never)
    else waiter?.reject(new Error(message.message))
  })

  const query = <T extends QueryType>(type: T, args: QueryArgs<T>): Promise<QueryResults[T]> => {
    const id = nextId++
    return new Promise<QueryResults[T]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: never) => void, reject })
      port.post({ v: PROTOCOL_VERSION, id, type, ...args } as unknown as LensRequest, [])
    })
  }

  const pumpState = (): void => {
    if (stateInFlight || stateWanted === null) return
    const index = stateWanted
    stateWanted = null
    stateInFlight = true
    query('state-at', { index })
      .then((snapshot) => {
        // A newer cursor is already queued: this answer is stale, skip publishing it.
        if (stateWanted === null) emit({ type: 'snapshot', snapshot })
      })
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        stateInFlight = false
        pumpState()
      })
  }

  return {
    loadFile(file, slot) {
      const loadId = nextLoad++
      // A File is a handle to the bytes, not the bytes: cloning it is cheap and the worker slices it itself.
      port.post({ v: PROTOCOL_VERSION, type: 'load-file', loadId, file, ...(slot === undefined ? {} : { slot }) }, [])
      return loadId
    },
    loadUrl(url, label, name) {
      const loadId = nextLoad++
      port.post({ v: PROTOCOL_VERSION, type: 'load-url', loadId, url, label, name }, [])
      return loadId
    },
    beginStream(name, totalBytes, live, slot) {
      const loadId = nextLoad++
      port.post(
        { v: PROTOCOL_VERSION, type: 'load-begin', loadId, name, totalBytes, live, ...(slot === undefined ? {} : { slot }) },
        [],
      )
      return loadId
    },
    pushChunk(loadId, bytes) {
      // Transfer, do not copy: the main thread never reads a chunk again, and a log can be hundreds of MB.
      // A view into a larger buffer is copied first so we never detach memory someone else still uses.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
      // (`Uint8Array.prototype.slice`, not `bytes.slice`: a Node Buffer's slice is a view of its whole pool.)
      const buffer = own ? (bytes.buffer as ArrayBuffer) : Uint8Array.prototype.slice.call(bytes).buffer
      port.post({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId, bytes: buffer }, [buffer])
    },
    endStream(loadId) {
      port.post({ v: PROTOCOL_VERSION, type: 'load-end', loadId }, [])
    },
    cancel(loadId) {
      port.post({ v: PROTOCOL_VERSION, type: 'cancel', loadId }, [])
    },
    query,
    requestState(index) {
      stateWanted = index
      pumpState()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      listeners.clear()
      pending.forEach((w) => w.reject(new Error('lens client disposed')))
      pending.clear()
      port.close()
    },
  }
}

/** The production client: a module worker running `lens.worker.ts`. */
export function createWorkerClient(): LensClient {
  return createClient((receive) => {
    const worker = new Worker(new URL('./lens.worker.ts', import.meta.url), { type: 'module', name: 'dsh-lens' })
    worker.onmessage = (event: MessageEvent<unknown>) => receive(event.data)
    worker.onerror = (event) => console.error('lens worker error', event.message)
    return { post: (message, transfer) => worker.postMessage(message, transfer), close: () => worker.terminate() }
  })
}
