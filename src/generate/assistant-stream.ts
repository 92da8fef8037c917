/**
 * One streamed model response as the harness logs it: `assistant/chunk` events for each block (start, deltas),
 * then every block's end, usage and finish. Shared by the random generator and the scripted demo, which differ
 * only in what they say, so both write the same wire shape.
 *
 * Randomness is the caller's: the streamer draws nothing itself except through the `gap` and `rng` it is handed,
 * in the order the calls are made, so a seeded log stays byte-for-byte reproducible.
 */

import type { Batcher } from './batcher.ts'
import type { Rng } from './prng.ts'
import { splitDeltas } from './vocabulary.ts'

export class AssistantStream {
  /** Seqs of every chunk written, the message's `sourceEventSeqs`. */
  readonly chunkSeqs: number[] = []
  /** The finished blocks, the message's `content`. */
  readonly content: unknown[] = []
  private readonly ends: unknown[] = []
  private index = 0

  constructor(
    private readonly log: Batcher,
    private readonly turn: number,
    private readonly step: number,
    /** Milliseconds between two deltas (drawn per delta). */
    private readonly gap: () => number,
  ) {}

  /** A reasoning or text block streamed as `parts`; its final text is their concatenation unless given. */
  block(kind: 'reasoning' | 'text', parts: readonly string[], text = parts.join('')): void {
    const blockIndex = this.index++
    this.chunk({ type: 'block-start', index: blockIndex, blockType: kind })
    for (const part of parts) {
      this.log.advance(this.gap())
      this.chunk({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: blockIndex, text: part })
    }
    this.finishBlock(blockIndex, { type: kind, text })
  }

  /** A tool-call block whose JSON arguments stream in `rng`-sized deltas. */
  toolCall(rng: Rng, id: string, name: string, args: string): void {
    const blockIndex = this.index++
    this.chunk({ type: 'block-start', index: blockIndex, blockType: 'tool-call' })
    for (const argumentsDelta of splitDeltas(rng, args)) {
      this.log.advance(this.gap())
      this.chunk({ type: 'tool-call-delta', index: blockIndex, id, name, argumentsDelta })
    }
    this.finishBlock(blockIndex, { type: 'tool-call', id, name, arguments: args })
  }

  /** The block ends, written together after the last delta as the harness does. */
  endBlocks(): void {
    for (const end of this.ends) this.chunk(end)
  }

  /** Usage and the finish reason close the stream. */
  finish(usage: unknown, toolCalls: boolean): void {
    this.chunk({ type: 'usage', usage })
    this.chunk({ type: 'finish', reason: { kind: toolCalls ? 'tool-calls' : 'stop' } })
  }

  private finishBlock(blockIndex: number, block: unknown): void {
    this.content.push(block)
    this.ends.push({ type: 'block-end', index: blockIndex, block })
  }

  private chunk(chunk: unknown): void {
    this.chunkSeqs.push(this.log.append('assistant/chunk', { turn: this.turn, step: this.step, chunk }))
  }
}
