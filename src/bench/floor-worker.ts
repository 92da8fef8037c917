/**
 * The browser bench's floor, run in a dedicated Web Worker of the bench page: the file's bytes, zstd-decoded
 * frame by frame with libzstd (WebAssembly, as the app), then TextDecoder + JSON.parse of every line, nothing else.
 * Bundled on its own by browser-bench.ts (esbuild) into the served build as /bench-floor-worker.js; the app never loads it.
 */

import { zstdFrameRanges } from './frame-walker.ts'
import { floorFrameDecoder, parseLines, plaintextPieces } from './floor-parse.ts'

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
// Compiled as the worker starts (a few ms; the app compiles its own at a log's first frame).
const decodeFrame = floorFrameDecoder()

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
      let plainBytes = 0
      for (const piece of plaintextPieces(bytes, request.zstd ? 'zstd' : 'jsonl', decodeFrame)) {
        plainBytes += piece.length
        parseLines(decoder.decode(piece), records)
      }
      const ms = performance.now() - t0
      const reply: FloorReply = {
        kind: 'floor',
        ms,
        readMs,
        // Counted after the clock stopped: a walk over the frame headers the pieces already made.
        frames: request.zstd ? zstdFrameRanges(bytes).length : 1,
        records: records.length,
        plainBytes,
      }
      scope.postMessage(reply)
    },
    (error: unknown) => scope.postMessage({ kind: 'error', message: String(error) }),
  )
})
