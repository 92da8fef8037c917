/**
 * Many fixed strings looked up in one text at once (Aho-Corasick): which of them occur in it as substrings, exactly as
 * `text.includes(needle)` says, in one pass over the text. "What a compaction forgot" asks this of every file the log
 * names against every summary's text; asked one `includes` at a time that was files x summaries scans (a 280k-event log
 * of 749 summaries and ~3,900 files: seconds), in one pass per summary it is the summaries' text once.
 */

export class NeedleIndex {
  /** Per trie node: its children by UTF-16 code unit. */
  private readonly next: Map<number, number>[] = [new Map()]
  /** Per node: the longest proper suffix of its string that is also a trie node. */
  private fail: Int32Array = new Int32Array(0)
  /** Per node: the needles ending exactly here. */
  private readonly ends: number[][] = [[]]
  /** Per node: the nearest node down its fail chain (itself excluded) where a needle ends, or -1. */
  private outLink: Int32Array = new Int32Array(0)
  private readonly ids = new Map<string, number>()
  private built = false

  /** Needles added so far. */
  get size(): number {
    return this.ids.size
  }

  /** The id of `needle` (the same for the same string); an empty needle never occurs, and has none (-1). */
  add(needle: string): number {
    if (needle === '') return -1
    const known = this.ids.get(needle)
    if (known !== undefined) return known
    if (this.built) throw new Error('NeedleIndex: add after the first search')
    const id = this.ids.size
    this.ids.set(needle, id)
    let node = 0
    for (let i = 0; i < needle.length; i++) {
      const unit = needle.charCodeAt(i)
      const children = this.next[node] as Map<number, number>
      let child = children.get(unit)
      if (child === undefined) {
        child = this.next.push(new Map()) - 1
        this.ends.push([])
        children.set(unit, child)
      }
      node = child
    }
    ;(this.ends[node] as number[]).push(id)
    return id
  }

  /** Marks `seen[id] = 1` for every needle occurring in `text` (`seen` holds at least `size` entries). */
  markOccurring(text: string, seen: Uint8Array): void {
    if (!this.built) this.build()
    const fail = this.fail
    const outLink = this.outLink
    let node = 0
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      let child = (this.next[node] as Map<number, number>).get(unit)
      while (child === undefined && node !== 0) {
        node = fail[node] as number
        child = (this.next[node] as Map<number, number>).get(unit)
      }
      node = child ?? 0
      for (let at = node; at > 0; at = outLink[at] as number) for (const id of this.ends[at] as number[]) seen[id] = 1
    }
  }

  private build(): void {
    const count = this.next.length
    this.fail = new Int32Array(count)
    this.outLink = new Int32Array(count).fill(-1)
    const queue: number[] = []
    for (const child of (this.next[0] as Map<number, number>).values()) queue.push(child)
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number
      for (const [unit, child] of this.next[node] as Map<number, number>) {
        let f = this.fail[node] as number
        let to = (this.next[f] as Map<number, number>).get(unit)
        while (to === undefined && f !== 0) {
          f = this.fail[f] as number
          to = (this.next[f] as Map<number, number>).get(unit)
        }
        const target = to ?? 0
        this.fail[child] = target
        this.outLink[child] = (this.ends[target] as number[]).length > 0 ? target : (this.outLink[target] as number)
        queue.push(child)
      }
    }
    this.built = true
  }
}
