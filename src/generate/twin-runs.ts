/**
 * Two runs of one generated session, for comparing runs (issue 38): run A is the generator's session; run B is the
 * same session written again, as a second run writes it, with every per-run id minted anew (session, message, call,
 * compaction, command and retry ids) and every clock reading shifted and jittered; and, when asked, one divergence
 * injected at a chosen site. Because the generator injects it, it knows exactly where the runs must part: `expected`
 * is the first divergence a comparison has to find, with each side's seq and step.
 *
 * Every injection keeps B a valid log with A's seqs (so the expected seqs are A's):
 * - `user-message`: the text of a prompt the user typed (and its inbox copy) differs;
 * - `header`: a `request/header`'s system prompt differs;
 * - `tool-result`: an appended tool result's output differs (a later prune of it still rewrites only its content);
 * - `model-output`: an answer's last text or reasoning block differs (its last delta and block end too);
 * - `surface-op`: B does not make one of A's automatic compactions or prunes: its events become failed compaction
 *   attempts (`compaction/start`, `compaction/end` with an error, as the harness logs one), and every later
 *   replacement that named A's replacement names, in B, the range it stood for;
 * - `length`: B stops after one of A's `step/end` or `turn/end` events.
 */

import { DIVERGENCE_KINDS, type DivergenceKind } from '../core/compare/divergence-kind.ts'
import { deriveEventMessage } from '../core/fold/derive-message.ts'
import { resolveOptions, type GenerateOptions } from './options.ts'
import { packBatch } from './pack.ts'
import { Rng } from './prng.ts'
import { streamSession } from './index.ts'
import type { GeneratedBatch, GeneratedEvent, GeneratedHeader, GeneratedSession } from './types.ts'

/** A divergence is injected of each kind a comparison names (src/core/compare). */
export type InjectedKind = DivergenceKind
export const INJECTED_KINDS: readonly InjectedKind[] = DIVERGENCE_KINDS

export interface TwinOptions {
  /** The session both runs are of (packing is applied to both runs alike). */
  readonly session: GenerateOptions
  /** Seeds B's ids, clock shift and jitter. */
  readonly twinSeed: number
  /** The divergence to inject into B: its kind, and which of the eligible sites (modulo their count, or the middle
   * one); null: none. */
  readonly divergence: { readonly kind: InjectedKind; readonly site: number | 'middle' } | null
}

/** Where a run stands at the divergence (the comparison's `SidePoint`). */
export interface ExpectedPoint {
  readonly seq: number
  readonly turn: number
  readonly step: number
}

export interface TwinRuns {
  readonly a: GeneratedSession
  readonly b: GeneratedSession
  /** The first divergence a comparison must find; null when none was injected (or no site of that kind exists). */
  readonly expected: { readonly kind: InjectedKind; readonly a: ExpectedPoint; readonly b: ExpectedPoint } | null
  /** How many sites of the asked kind A holds (0: nothing could be injected). */
  readonly sites: number
}

/* eslint-disable @typescript-eslint/no-explicit-any -- edits reach into the generator's own event shapes */
type Mutable = { type: string; seq: number; time: number; data: any; sourceEventSeqs?: number[]; surfaceOp?: any }

interface Site {
  readonly index: number
  readonly turn: number
  readonly step: number
}

/** Every event of A with the step it lies in (turn 0 / step 0 outside any step). */
function stepsOf(events: readonly Mutable[]): { turn: number; step: number }[] {
  let turn = 0
  let step = 0
  return events.map((e) => {
    if (e.type === 'step/start') ({ turn, step } = e.data)
    const at = { turn, step }
    if (e.type === 'step/end' || e.type === 'turn/end') step = 0
    return at
  })
}

const isReplace = (e: Mutable) => typeof e.surfaceOp === 'object' && e.surfaceOp?.op === 'replace'

function sitesOf(kind: InjectedKind, events: readonly Mutable[]): Site[] {
  const where = stepsOf(events)
  const out: Site[] = []
  events.forEach((e, index) => {
    const { turn, step } = where[index] as { turn: number; step: number }
    const inStep = step > 0
    let eligible = false
    switch (kind) {
      case 'user-message':
        eligible = inStep && e.type === 'user/message' && e.data.source?.kind === 'user' && e.surfaceOp === 'append'
        break
      case 'header':
        eligible = inStep && e.type === 'request/header'
        break
      case 'tool-result':
        eligible = inStep && e.type === 'tool/result' && e.surfaceOp === 'append'
        break
      case 'model-output':
        eligible = inStep && e.type === 'assistant/message' && e.data.message.content.length > 0
        break
      case 'surface-op':
        // Automatic ones, inside a step: a prune's rewritten result, or a compaction's checkpoint.
        eligible =
          inStep &&
          isReplace(e) &&
          ((e.type === 'tool/result' && events[index - 1]?.type === 'compaction/prune') ||
            (e.type === 'user/message' && events[index - 1]?.type === 'compaction/summary'))
        break
      case 'length':
        eligible = (e.type === 'step/end' || e.type === 'turn/end') && index < events.length - 1
        break
    }
    if (eligible) out.push({ index, turn, step })
  })
  return out
}

const MARK = ' (run B)'

/** The last text-like block of an answer, with its block index. */
function lastTextBlock(message: any): number {
  for (let k = message.content.length - 1; k >= 0; k--) {
    const type = message.content[k].type
    if (type === 'text' || type === 'reasoning') return k
  }
  return -1
}

/** Rewrite a seq list / range for B: a replacement B did not make stands for what it replaced. */
class Unreplaced {
  constructor(
    readonly seq: number,
    readonly start: number,
    readonly end: number,
    readonly shadowed: readonly number[],
  ) {}

  seqs(list: readonly number[]): number[] {
    return list.flatMap((s) => (s === this.seq ? [...this.shadowed] : [s]))
  }

  range(r: { start: number; end: number }): { start: number; end: number } {
    return { start: r.start === this.seq ? this.start : r.start, end: r.end === this.seq ? this.end : r.end }
  }

  rewrite(e: Mutable): void {
    if (isReplace(e)) e.surfaceOp = { op: 'replace', ...this.range(e.surfaceOp) }
    if (Array.isArray(e.sourceEventSeqs)) e.sourceEventSeqs = this.seqs(e.sourceEventSeqs)
    if ((e.type === 'compaction/summary' || e.type === 'compaction/prune') && e.data.shadowedRange !== undefined) {
      e.data.shadowedRange = this.range(e.data.shadowedRange)
      e.data.shadowedSeqs = this.seqs(e.data.shadowedSeqs)
    }
  }
}

const FAILED = 'summary is not smaller than the shadowed content'

function inject(kind: InjectedKind, site: Site, a: readonly Mutable[], b: Mutable[], rng: Rng): TwinRuns['expected'] {
  const e = b[site.index] as Mutable
  const at = (index: number): ExpectedPoint => ({ seq: (a[index] as Mutable).seq, turn: site.turn, step: site.step })
  switch (kind) {
    case 'user-message': {
      const block = e.data.content[0]
      block.text += MARK
      // The inbox's copy of the prompt (same message id) says the same.
      for (const other of b)
        if (other.type === 'agent/inbox/spliced')
          for (const m of other.data.inserted ?? []) if (m.id === e.data.id) m.content[0].text = block.text
      return { kind, a: at(site.index), b: at(site.index) }
    }
    case 'header':
      e.data.header.system = `${e.data.header.system ?? ''}${MARK}`
      return { kind, a: at(site.index), b: at(site.index) }
    case 'tool-result':
      e.data.message.content[0].content[0].text += MARK
      return { kind, a: at(site.index), b: at(site.index) }
    case 'model-output': {
      const k = lastTextBlock(e.data.message)
      e.data.message.content[k].text += MARK
      // The stream said it too: the block's last delta and its block end.
      for (let i = site.index - 1; i >= 0; i--) {
        const chunk = (b[i] as Mutable).type === 'assistant/chunk' ? (b[i] as Mutable).data.chunk : undefined
        if (chunk?.type === 'block-end' && chunk.index === k) chunk.block.text += MARK
        if ((chunk?.type === 'text-delta' || chunk?.type === 'reasoning-delta') && chunk.index === k) {
          chunk.text += MARK
          break
        }
      }
      return { kind, a: at(site.index), b: at(site.index) }
    }
    case 'surface-op': {
      const op = e.surfaceOp as { start: number; end: number }
      const summary = e.type === 'user/message'
      const shadowed: number[] = summary ? [...(b[site.index - 1] as Mutable).data.shadowedSeqs] : [op.start]
      const unreplaced = new Unreplaced(e.seq, op.start, op.end, shadowed)
      const turn = site.turn
      const fresh = () => rng.uuid()
      // Seqs stay: the announcing event and the replacement become a failed attempt; a compaction's two others too.
      const first = summary ? site.index - 2 : site.index - 1
      const ids = summary ? [(b[first] as Mutable).data.compactionId, fresh()] : [fresh()]
      const attempt = (i: number, type: 'compaction/start' | 'compaction/end', id: string) => {
        const target = b[i] as Mutable
        b[i] = {
          type,
          seq: target.seq,
          time: target.time,
          data: type === 'compaction/start' ? { compactionId: id, turn } : { compactionId: id, turn, error: FAILED },
        }
      }
      if (summary) {
        attempt(first, 'compaction/start', ids[0] as string)
        attempt(first + 1, 'compaction/end', ids[0] as string)
        attempt(first + 2, 'compaction/start', ids[1] as string)
        attempt(first + 3, 'compaction/end', ids[1] as string)
      } else {
        attempt(first, 'compaction/start', ids[0] as string)
        attempt(first + 1, 'compaction/end', ids[0] as string)
      }
      for (let i = site.index + 1; i < b.length; i++) unreplaced.rewrite(b[i] as Mutable)
      // B still sends what A replaced: its first node that gives the model a message (an empty assistant message, a
      // max-tokens stop with no content, is on the surface but never sent), in surface order.
      const sent = shadowed.find((seq) => {
        const event = a.find((x) => x.seq === seq)
        return event !== undefined && deriveEventMessage(event) !== null
      })
      return { kind, a: at(site.index), b: { seq: sent ?? op.start, turn: site.turn, step: site.step } }
    }
    case 'length': {
      const cut = site.index
      b.length = cut + 1
      const where = stepsOf(a)
      let next = cut + 1
      while (next < a.length && (a[next] as Mutable).type !== 'step/start') next++
      if (next >= a.length) return null
      const going = where[next] as { turn: number; step: number }
      // B's last step: the one that ended at the cut, or the last one before it.
      let last = cut
      while (last > 0 && (where[last] as { step: number }).step === 0) last--
      const stopped = where[last] as { turn: number; step: number }
      return {
        kind,
        a: { seq: (a[next] as Mutable).seq, turn: going.turn, step: going.step },
        b: { seq: (a[cut] as Mutable).seq, turn: stopped.turn, step: stopped.step },
      }
    }
  }
}

/** A second run's ids: each id of A gets a fresh one of the same shape, the same everywhere it appears. */
class IdMinter {
  private readonly ids = new Map<string, string>()

  constructor(private readonly rng: Rng) {}

  id(value: unknown): unknown {
    if (typeof value !== 'string') return value
    let id = this.ids.get(value)
    if (id === undefined) {
      const prefix = /^(call[_-]|cmd-)/.exec(value)?.[1] ?? ''
      id = `${prefix}${this.rng.uuid()}`
      this.ids.set(value, id)
    }
    return id
  }

  source(source: any): void {
    if (source === undefined) return
    for (const key of ['compactionId', 'sourceCommandId', 'callId']) if (key in source) source[key] = this.id(source[key])
  }

  content(content: any[]): void {
    for (const block of content ?? []) {
      if (block?.type === 'tool-call') block.id = this.id(block.id)
      if (block?.type === 'tool-result') block.toolCallId = this.id(block.toolCallId)
    }
  }

  event(e: Mutable): void {
    const d = e.data
    if (d === null || typeof d !== 'object') return
    switch (e.type) {
      case 'user/message':
        d.id = this.id(d.id)
        this.source(d.source)
        return
      case 'agent/inbox/spliced':
        for (const m of d.inserted ?? []) m.id = this.id(m.id)
        return
      case 'assistant/message':
      case 'tool/result':
        d.message.id = this.id(d.message.id)
        this.content(d.message.content)
        this.source(d.message.source)
        return
      case 'assistant/chunk': {
        const chunk = d.chunk
        if (chunk.type === 'tool-call-delta') chunk.id = this.id(chunk.id)
        if (chunk.type === 'block-end' && chunk.block?.type === 'tool-call') chunk.block.id = this.id(chunk.block.id)
        return
      }
      case 'tool/call':
        d.callId = this.id(d.callId)
        return
      case 'command/run':
      case 'command/done':
        d.commandId = this.id(d.commandId)
        return
      case 'llm/retry':
      case 'llm/retry-started':
        d.retryId = this.id(d.retryId)
        return
      default:
        if (typeof e.type === 'string' && e.type.startsWith('compaction/')) {
          if ('compactionId' in d) d.compactionId = this.id(d.compactionId)
          if ('sourceCommandId' in d) d.sourceCommandId = this.id(d.sourceCommandId)
        }
    }
  }
}

function batched(events: readonly Mutable[], sizes: readonly number[], pack: boolean): GeneratedBatch[] {
  const batches: GeneratedBatch[] = []
  let at = 0
  for (const size of sizes) {
    if (at >= events.length) break
    const batch = events.slice(at, at + size) as unknown as GeneratedEvent[]
    at += size
    batches.push(pack ? packBatch(batch) : batch)
  }
  return batches
}

/** Run A (the session) and run B (its second run, with the divergence injected), and where they must part. */
export function twinRuns(options: TwinOptions): TwinRuns {
  const pack = resolveOptions(options.session).pack
  const stream = streamSession({ ...options.session, pack: false })
  const sizes: number[] = []
  const a: Mutable[] = []
  for (const batch of stream.batches) {
    sizes.push(batch.length)
    for (const record of batch) a.push(record as unknown as Mutable)
  }
  const rng = new Rng(options.twinSeed)
  const b: Mutable[] = a.map((e) => JSON.parse(JSON.stringify(e)) as Mutable)
  let expected: TwinRuns['expected'] = null
  let sites = 0
  if (options.divergence !== null) {
    const all = sitesOf(options.divergence.kind, a)
    sites = all.length
    const at = options.divergence.site
    const site = all[at === 'middle' ? Math.floor(all.length / 2) : at % Math.max(1, all.length)]
    if (site !== undefined) expected = inject(options.divergence.kind, site, a, b, rng)
  }
  // A second run: fresh ids, and its own clock (hours to weeks later, each event a few ms more or less apart).
  const ids = new IdMinter(rng)
  const shift = rng.int(3_600_000, 30 * 86_400_000)
  let jitter = 0
  for (const e of b) {
    ids.event(e)
    jitter += rng.int(0, 3)
    e.time += shift + jitter
  }
  const header: GeneratedHeader = { ...stream.header, id: rng.uuid(), createdAt: stream.header.createdAt + shift }
  const count = (events: readonly Mutable[]) => events.length
  return {
    a: { header: stream.header, batches: batched(a, sizes, pack), eventCount: count(a) },
    b: { header, batches: batched(b, sizes, pack), eventCount: count(b) },
    expected,
    sites,
  }
}
