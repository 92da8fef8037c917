/** Packing like the harness's `chunk-rows.ts`: runs of >= 3 same-block deltas in one batch become one row. */

import type { GeneratedBatch, GeneratedEvent, GeneratedPackedRow, GeneratedRecord } from './types.ts'

const MIN_RUN = 3

interface DeltaChunk {
  readonly type: 'text-delta' | 'reasoning-delta' | 'tool-call-delta'
  readonly index: number
  readonly text?: string
  readonly id?: string
  readonly name?: string
  readonly argumentsDelta?: string
}

interface ChunkData {
  readonly turn: number
  readonly step: number
  readonly chunk: DeltaChunk
}

/** The delta chunk of a packable event, or undefined. The generator only writes exact shapes, so no key checks. */
function deltaOf(event: GeneratedRecord): ChunkData | undefined {
  if (event.type !== 'assistant/chunk') return undefined
  const data = (event as GeneratedEvent).data as ChunkData
  const kind = data.chunk.type
  return kind === 'text-delta' || kind === 'reasoning-delta' || kind === 'tool-call-delta' ? data : undefined
}

/** Whether `b` may continue the run started by `a` (same turn/step/index, same tool id and name). */
function sameRun(a: ChunkData, b: ChunkData): boolean {
  return (
    a.turn === b.turn &&
    a.step === b.step &&
    a.chunk.type === b.chunk.type &&
    a.chunk.index === b.chunk.index &&
    a.chunk.id === b.chunk.id &&
    a.chunk.name === b.chunk.name
  )
}

function toRow(events: readonly GeneratedEvent[]): GeneratedPackedRow {
  const first = events[0] as GeneratedEvent
  const data = first.data as ChunkData
  const dt: number[] = []
  for (let i = 1; i < events.length; i++) dt.push((events[i] as GeneratedEvent).time - (events[i - 1] as GeneratedEvent).time)
  const base = { turn: data.turn, step: data.step, index: data.chunk.index, dt }
  const payload = events.map((e) => {
    const chunk = (e.data as ChunkData).chunk
    return chunk.type === 'tool-call-delta' ? (chunk.argumentsDelta as string) : (chunk.text as string)
  })
  if (data.chunk.type === 'tool-call-delta') {
    const id = data.chunk.id as string
    const tool =
      data.chunk.name === undefined ? { ...base, id, args: payload } : { ...base, id, name: data.chunk.name, args: payload }
    return { type: 'tool-call-chunks', seq0: first.seq, time0: first.time, data: tool }
  }
  const type = data.chunk.type === 'text-delta' ? 'text-chunks' : 'reasoning-chunks'
  return { type, seq0: first.seq, time0: first.time, data: { ...base, texts: payload } }
}

/** Pack one batch; records that are not part of a long enough run pass through unchanged. */
export function packBatch(events: readonly GeneratedEvent[]): GeneratedBatch {
  const out: GeneratedRecord[] = []
  let i = 0
  while (i < events.length) {
    const event = events[i] as GeneratedEvent
    const head = deltaOf(event)
    let j = i + 1
    if (head !== undefined) {
      while (j < events.length) {
        const next = deltaOf(events[j] as GeneratedEvent)
        if (next === undefined || !sameRun(head, next)) break
        j++
      }
    }
    if (j - i >= MIN_RUN) out.push(toRow(events.slice(i, j)))
    else for (let k = i; k < j; k++) out.push(events[k] as GeneratedEvent)
    i = j
  }
  return out
}
