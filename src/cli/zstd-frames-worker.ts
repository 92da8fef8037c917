/**
 * Worker thread of the CLI's zstd read-ahead (see zstd-prefetch.ts): it receives the same input bytes as the main
 * thread, walks them with the core's own ZstdContainer and decompresses every complete frame with fzstd, posting the
 * plaintext in batches while the main thread parses and folds. Frames the main thread claimed (decoded itself while
 * this thread was starting) are skipped. Nothing is judged here: checksums, diagnostics and torn tails stay on the
 * main thread, so the CLI's answers are the same with or without this thread.
 */

import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { decompress } from 'fzstd'
// Straight from its module, not the core's index: the worker's bundle then holds the container and fzstd only.
import { ZstdContainer } from '../core/decode/zstd-container.ts'
import { BATCH_BYTES, PrefetchSlot, type FrameBatch } from './zstd-prefetch-protocol.ts'

const { port, state } = workerData as { port: MessagePort; state: SharedArrayBuffer }
const shared = new Int32Array(state)
const SKIPPED = new Uint8Array(0)

let indices: number[] = []
let offsets: number[] = []
let parts: Uint8Array[] = []
let bytes = 0

function flush(): void {
  if (parts.length === 0) return
  // fzstd returns each frame in a buffer of its own: hand those over as they are (transferred, not copied).
  const buffers = new Set<ArrayBuffer>()
  for (const part of parts) buffers.add(part.buffer as ArrayBuffer)
  const batch: FrameBatch = { indices, offsets, plaintexts: parts }
  port.postMessage(batch, [...buffers])
  indices = []
  offsets = []
  parts = []
  bytes = 0
  Atomics.add(shared, PrefetchSlot.Posted, 1)
  Atomics.notify(shared, PrefetchSlot.Posted)
}

const container = new ZstdContainer(
  {
    frame: (plaintext, index, offset) => {
      if (plaintext === SKIPPED) return
      indices.push(index)
      offsets.push(offset)
      parts.push(plaintext)
      bytes += plaintext.length
      if (bytes >= BATCH_BYTES) flush()
    },
    // A corrupt or torn frame is the main thread's to report: it decodes that one itself.
    tornFrame: () => undefined,
    diagnostic: () => undefined,
  },
  undefined,
  (frame, index) => (index < Atomics.load(shared, PrefetchSlot.Claimed) ? SKIPPED : decompress(frame)),
)

function done(): void {
  Atomics.store(shared, PrefetchSlot.Done, 1)
  Atomics.notify(shared, PrefetchSlot.Posted)
  parentPort?.close()
  port.close()
}

Atomics.store(shared, PrefetchSlot.Started, 1)
// A forced read-ahead (DSH_LENS_ZSTD_WORKER=1|stats) waits for this before its first frame.
Atomics.notify(shared, PrefetchSlot.Started)
parentPort?.on('message', (chunk: Uint8Array | null) => {
  try {
    if (chunk === null) {
      flush()
      done()
      return
    }
    container.push(chunk)
    flush()
  } catch {
    // Whatever went wrong here, the main thread decodes the rest itself.
    done()
  }
})
