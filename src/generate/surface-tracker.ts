/** The generator's copy of the model surface, so every replace it writes names a contiguous run of current nodes. */

export interface TrackedNode {
  readonly seq: number
  /** Nodes of one unit (a user message, or an assistant message with its tool results) are replaced together. */
  readonly unit: number
  readonly tokens: number
  readonly kind: 'user' | 'assistant' | 'tool-result' | 'summary' | 'pruned'
  /** For a summary: how many summaries deep it is (1 + the deepest summary it swallowed). */
  readonly depth?: number
}

export class SurfaceTracker {
  readonly nodes: TrackedNode[] = []
  private nextUnit = 0

  newUnit(): number {
    return this.nextUnit++
  }

  append(node: TrackedNode): void {
    this.nodes.push(node)
  }

  /** Splice nodes[startIdx..endIdx] into one node, as the harness's fold does. */
  replace(startIdx: number, endIdx: number, node: TrackedNode): TrackedNode[] {
    return this.nodes.splice(startIdx, endIdx - startIdx + 1, node)
  }

  indexOf(seq: number): number {
    return this.nodes.findIndex((n) => n.seq === seq)
  }

  /** Index of the first node of each unit, in surface order: the only legal range starts. */
  unitStarts(): number[] {
    const starts: number[] = []
    for (let i = 0; i < this.nodes.length; i++) {
      if (i === 0 || (this.nodes[i] as TrackedNode).unit !== (this.nodes[i - 1] as TrackedNode).unit) starts.push(i)
    }
    return starts
  }
}
