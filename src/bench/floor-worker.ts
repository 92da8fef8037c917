/**
 * The browser bench's floor, run in a dedicated Web Worker of the bench page: the file's bytes, zstd-decoded
 * frame by frame with fzstd's `decompress`, then TextDecoder + JSON.parse of every line, nothing else.
 * Bundled on its own by browser-bench.ts (esbuild) into the served build as /bench-floor-worker.js; the app never loads it.
 */

import { decompress } from 'fzstd'
import { zstdFrameRanges } from './frame-walker.ts'

/** `ping` is answered at once, so the bench can start the clock only once the worker is up, as the app's is. */
export type FloorRequest =
  | { readonly kind: 'ping' }
  | { readonly kind: 'floor'; readonly file: File; readonly zstd: boolean }
  /** The navigation floor (navigation-lane.ts): fetch a same-origin URL, then the same parse. */
  | { readonly kind: 'floor-url'; readonly url: string; readonly zstd: boolean }

export interface FloorReply {
  readonly kind: 'floor'
  /** From the message's arrival to the last line parsed, reading the File included. */
  readonly ms: number
  readonly readMs: number
  readonly frames: number
  readonly records: number
  readonly plainBytes: number
}

const scope = self as unknown as DedicatedWorkerGlobalScope

scope.addEventListener('message', (event: MessageEvent<FloorRequest>) => {
  const request = event.data
  if (request.kind === 'ping') {
    scope.postMessage({ kind: 'pong' })
    return
  }
  const t0 = performance.now()
  const read =
    request.kind === 'floor'
      ? request.file.arrayBuffer()
      : fetch(request.url).then((response) => {
          if (!response.ok) throw new Error(`floor fetch: ${response.status} for ${request.url}`)
          return response.arrayBuffer()
        })
  void read.then(
    (buffer) => {
      const readMs = performance.now() - t0
      const bytes = new Uint8Array(buffer)
      const decoder = new TextDecoder()
      // Kept alive to the end, as a loader keeps what it parsed; the count is the check that nothing was skipped.
      const records: unknown[] = []
      // A plain JSONL file is one piece: the floor then is TextDecoder + JSON.parse alone.
      const ranges: Array<[number, number]> = request.zstd ? zstdFrameRanges(bytes) : [[0, bytes.length]]
      let plainBytes = 0
      for (const [start, end] of ranges) {
        const piece = request.zstd ? decompress(bytes.subarray(start, end)) : bytes
        plainBytes += piece.length
        const text = decoder.decode(piece)
        let at = 0
        for (;;) {
          const nl = text.indexOf('\n', at)
          if (nl === -1) break
          if (nl > at) records.push(JSON.parse(text.slice(at, nl)))
          at = nl + 1
        }
      }
      const reply: FloorReply = {
        kind: 'floor',
        ms: performance.now() - t0,
        readMs,
        frames: ranges.length,
        records: records.length,
        plainBytes,
      }
      scope.postMessage(reply)
    },
    (error: unknown) => scope.postMessage({ kind: 'error', message: String(error) }),
  )
})
