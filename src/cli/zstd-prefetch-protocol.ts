/** What the CLI's main thread and its zstd read-ahead worker share (zstd-prefetch.ts, zstd-frames-worker.ts). */

/** Slots of the shared Int32Array. */
export const PrefetchSlot = {
  /** Frames below this index the main thread decodes itself (set while the worker is still starting). */
  Claimed: 0,
  /** Batches posted so far: the main thread waits on this slot. */
  Posted: 1,
  /** 1 once the worker's message handler is installed. */
  Started: 2,
  /** 1 once the worker has posted everything it will (input ended, or it failed). */
  Done: 3,
} as const

export const PREFETCH_SLOTS = 4

/** Plaintext per batch: large enough that messages cost little, small enough that the first arrives at once. */
export const BATCH_BYTES = 128 * 1024

/** Consecutive decoded frames and their plaintexts. */
export interface FrameBatch {
  readonly indices: readonly number[]
  readonly offsets: readonly number[]
  readonly plaintexts: readonly Uint8Array[]
}
