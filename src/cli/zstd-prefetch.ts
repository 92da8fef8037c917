/**
 * zstd read-ahead for the CLI: fzstd (pure JavaScript; Node 20 has no zstd) costs about as much as parsing and
 * folding the plaintext, so a worker thread decompresses frames while this thread parses and folds, and the core's
 * ZstdContainer takes each frame's plaintext from it (LensLog's `decompressFrame`). The worker sees the same bytes
 * this thread reads, in the same order; it only decompresses. Everything else (framing, checksums, diagnostics)
 * stays here, and any frame the worker does not deliver (it was corrupt, the worker is still starting, or it
 * failed) is decoded here with the same fzstd call, so the answers are byte-identical with or without it.
 *
 * Waiting is synchronous (Atomics.wait on a shared counter, receiveMessageOnPort): the core's push is synchronous,
 * and nothing else runs in the CLI meanwhile.
 *
 * Starting a worker costs ~50 ms of CPU, more than fzstd spends on a small log, so it starts only once 1 MiB of
 * zstd input has been read (the bytes so far are handed over then; the main thread has decoded their frames itself
 * meanwhile and the worker skips them). DSH_LENS_ZSTD_WORKER=0 turns it off, =1 starts it whatever the size, and
 * =stats does that and reports on standard error how many frames each thread decoded (for measuring and tests).
 */

import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import { decompress } from 'fzstd'
import { hasZstdMagic, type FrameDecompressor } from '../core/index.ts'
import { PREFETCH_SLOTS, PrefetchSlot, type FrameBatch } from './zstd-prefetch-protocol.ts'

/** zstd input read before a worker pays for its start. */
const WORKER_MIN_BYTES = 1 << 20

/** How long to wait for one batch before giving up on the worker (it cannot take this long unless it is stuck). */
const WAIT_MS = 10_000

/**
 * The worker's module beside this one: the built bundle's (dist-cli/zstd-frames-worker.cjs). Under the TypeScript
 * sources (`npm run lens`, tsx) there is none: tsx's loader does not reach a Node 20 worker thread ("Unknown file
 * extension .ts", even with its --import passed on), so the sources decode every frame on the main thread, as before.
 */
const fromSources = import.meta.url.endsWith('.ts')
const workerUrl = new URL('./zstd-frames-worker.cjs', import.meta.url)

export class ZstdPrefetch {
  private worker: Worker | undefined
  private port: MessagePort | undefined
  private shared: Int32Array | undefined
  private decided = false
  /** Input read before the worker starts, handed to it when it does. */
  private held: Uint8Array[] = []
  private heldBytes = 0
  private broken = false
  /**
   * DSH_LENS_ZSTD_WORKER=1|stats: the worker always starts and the first frame waits for it, so every frame it can
   * decode comes from it (the tests compare its answers with the main thread's; a race would make that a sample).
   */
  private forced = false
  private batch: FrameBatch | undefined
  private at = 0
  /** Frames taken from the worker, and decoded on this thread. */
  fromWorker = 0
  here = 0

  /** Hand the next input bytes to the worker (call before pushing them into the log). The first decide. */
  observe(bytes: Uint8Array): void {
    if (this.worker !== undefined) {
      this.worker.postMessage(bytes)
      return
    }
    if (this.decided) return
    if (this.held.length === 0) {
      // The container is known by its first 4 bytes (the core sniffs the same way).
      const mode = process.env['DSH_LENS_ZSTD_WORKER']
      if (fromSources || bytes.length < 4 || !hasZstdMagic(bytes) || mode === '0') {
        this.decided = true
        return
      }
      if (mode === '1' || mode === 'stats') {
        this.heldBytes = Infinity
        this.forced = true
      }
    }
    // Readers hand over fresh buffers (never reused), so holding them needs no copy.
    this.held.push(bytes)
    this.heldBytes += bytes.length
    if (this.heldBytes < WORKER_MIN_BYTES) return
    this.decided = true
    const worker = this.spawn()
    for (const chunk of this.held) worker.postMessage(chunk)
    this.held = []
  }

  /** End of input: the worker posts what is left and exits. */
  end(): void {
    this.held = []
    this.decided = true
    this.worker?.postMessage(null)
    this.worker?.unref()
    this.port?.unref()
    if (process.env['DSH_LENS_ZSTD_WORKER'] === 'stats')
      process.stderr.write(`zstd frames: ${this.fromWorker} from the worker, ${this.here} on the main thread\n`)
  }

  readonly decompressFrame: FrameDecompressor = (frame, index, offset) => {
    if (this.shared === undefined || this.broken) return this.decodeHere(frame)
    const shared = this.shared
    for (;;) {
      const head = this.head()
      if (head !== undefined) {
        if (head.index < index) {
          this.at++
          continue
        }
        if (head.index === index && head.offset === offset) {
          this.at++
          this.fromWorker++
          return head.plaintext
        }
        // The worker skipped this frame (it could not decode it): decode it here, so any error is this thread's.
        return this.decodeHere(frame)
      }
      if (this.forced && Atomics.load(shared, PrefetchSlot.Started) === 0) {
        if (Atomics.wait(shared, PrefetchSlot.Started, 0, WAIT_MS) !== 'timed-out') continue
        this.broken = true
        return this.decodeHere(frame)
      }
      if (Atomics.load(shared, PrefetchSlot.Started) === 0) {
        // Still starting: decode this frame here and tell the worker to skip it.
        Atomics.store(shared, PrefetchSlot.Claimed, index + 1)
        return this.decodeHere(frame)
      }
      const posted = Atomics.load(shared, PrefetchSlot.Posted)
      if (this.receive()) continue
      if (Atomics.load(shared, PrefetchSlot.Done) === 1) {
        if (this.receive()) continue
        return this.decodeHere(frame)
      }
      if (Atomics.wait(shared, PrefetchSlot.Posted, posted, WAIT_MS) === 'timed-out') {
        this.broken = true
        return this.decodeHere(frame)
      }
    }
  }

  private decodeHere(frame: Uint8Array): Uint8Array {
    this.here++
    return decompress(frame)
  }

  private spawn(): Worker {
    const state = new SharedArrayBuffer(PREFETCH_SLOTS * 4)
    const channel = new MessageChannel()
    this.shared = new Int32Array(state)
    this.port = channel.port1
    const worker = new Worker(workerUrl, {
      workerData: { port: channel.port2, state },
      transferList: [channel.port2],
    })
    // A failing worker is not an error of the command: this thread decodes whatever it did not deliver.
    worker.on('error', () => {
      this.broken = true
    })
    this.worker = worker
    return worker
  }

  /** The next delivered frame, without taking it. */
  private head(): { index: number; offset: number; plaintext: Uint8Array } | undefined {
    for (;;) {
      const batch = this.batch
      if (batch !== undefined && this.at < batch.indices.length)
        return {
          index: batch.indices[this.at] as number,
          offset: batch.offsets[this.at] as number,
          plaintext: batch.plaintexts[this.at] as Uint8Array,
        }
      if (!this.receive()) return undefined
    }
  }

  /** Take the next batch off the port, if one has arrived; false when none has. */
  private receive(): boolean {
    const batch = this.batch
    if (batch !== undefined && this.at < batch.indices.length) return true
    const message = this.port === undefined ? undefined : receiveMessageOnPort(this.port)
    if (message === undefined) return false
    this.batch = message.message as FrameBatch
    this.at = 0
    return true
  }
}
