/** The two baselines LensLog is measured against: the JSON.parse floor and the harness's own read + fold. */

import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { floorFrameDecoder, parseLines, plaintextPieces, type Encoding } from './floor-parse.ts'

export type { Encoding }

type HarnessEvents = Parameters<typeof foldSurface>[0]

const decoder = new TextDecoder()
const decodeFrame = floorFrameDecoder()

/** The floor: decode + JSON.parse of every line, nothing else. Returns the parsed records (header first). */
export function floorParse(bytes: Uint8Array, encoding: Encoding): unknown[] {
  const records: unknown[] = []
  for (const piece of plaintextPieces(bytes, encoding, decodeFrame)) parseLines(decoder.decode(piece), records)
  return records
}

interface Row {
  type: string
  seq0: number
  time0: number
  data: { turn: number; step: number; index: number; dt: number[]; texts?: string[]; id?: string; name?: string; args?: string[] }
}

/** The harness's `expandStorageRecord` (chunk-rows.ts L293-L328): member k at seq0+k, time0+sum(dt[0..k-1]). */
export function expandRecords(records: readonly unknown[], out: unknown[] = []): unknown[] {
  for (let r = 1; r < records.length; r++) {
    const record = records[r] as Row
    const type = record.type
    if (type !== 'text-chunks' && type !== 'reasoning-chunks' && type !== 'tool-call-chunks') {
      out.push(record)
      continue
    }
    const { turn, step, index, dt } = record.data
    const members = (type === 'tool-call-chunks' ? record.data.args : record.data.texts) as string[]
    let time = record.time0
    for (let k = 0; k < members.length; k++) {
      if (k > 0) time += dt[k - 1] as number
      const member = members[k] as string
      const chunk =
        type === 'tool-call-chunks'
          ? record.data.name === undefined
            ? { type: 'tool-call-delta', index, id: record.data.id, argumentsDelta: member }
            : { type: 'tool-call-delta', index, id: record.data.id, name: record.data.name, argumentsDelta: member }
          : { type: type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index, text: member }
      out.push({ type: 'assistant/chunk', seq: record.seq0 + k, time, data: { turn, step, chunk } })
    }
  }
  return out
}

/** The harness path: floor + packed-row expansion + `foldSurface`. */
export function harnessLoad(bytes: Uint8Array, encoding: Encoding): { events: unknown[]; nodes: number[]; replacements: number } {
  const events = expandRecords(floorParse(bytes, encoding))
  const folded = foldSurface(events as HarnessEvents)
  return { events, nodes: folded.nodes, replacements: folded.replacements.length }
}

export function harnessFold(events: readonly unknown[]): ReturnType<typeof foldSurface> {
  return foldSurface(events as HarnessEvents)
}
