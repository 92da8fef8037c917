/**
 * The streamed deltas of a span of events, as streams: every `text-delta`, `reasoning-delta` or `tool-call-delta` of
 * one block (turn, step, chunk type, block index), in log order, whether stored as plain `assistant/chunk` lines or
 * as members of packed rows, concatenated. A secret the model wrote is split across deltas; it is whole here.
 */

import { isPackedRowTag, packedRowSize } from '../decode/packed-rows.ts'
import type { LensLog } from '../log/lens-log.ts'
import type { PackedRow } from '../model/log-event.ts'

/** One delta of a stream and where its text lies in the stream's text. */
export interface StreamMember {
  /** Event index and seq. */
  readonly index: number
  readonly seq: number
  readonly line: number
  /** The record holding it, and its position in a packed row (-1: a plain `assistant/chunk` line). */
  readonly record: number
  readonly member: number
  /** [start, end) of its delta in `DeltaStream.text`. */
  readonly start: number
  readonly end: number
}

export interface DeltaStream {
  /** The JSON path of a delta's text, as search reports it for a member: `data.chunk.text` or `...argumentsDelta`. */
  readonly field: string
  readonly text: string
  readonly members: readonly StreamMember[]
  /** The member whose delta holds text position `at`. */
  memberAt(at: number): StreamMember
}

interface Builder {
  field: string
  parts: string[]
  members: StreamMember[]
  length: number
}

/** A streamed delta (`assistant/chunk` with a text, reasoning or tool-call delta, or a packed row of them). */
export function isDelta(event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false
  const e = event as { type?: unknown; data?: { chunk?: { type?: unknown } } }
  if (isPackedRowTag(e.type)) return true
  const type = e.data?.chunk?.type
  return e.type === 'assistant/chunk' && (type === 'text-delta' || type === 'reasoning-delta' || type === 'tool-call-delta')
}

/** Binary search: the record holding event `index`. */
export function recordOfIndex(log: LensLog, index: number): number {
  const texts = log.recordTexts
  let lo = 0
  let hi = texts.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (texts.firstIndexOf(mid) <= index) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/** The delta streams of events `from..to` (inclusive). */
export function readStreams(log: LensLog, from: number, to: number): DeltaStream[] {
  const texts = log.recordTexts
  const streams = new Map<string, Builder>()
  const add = (key: string, field: string, text: string, member: Omit<StreamMember, 'start' | 'end'>): void => {
    let b = streams.get(key)
    if (b === undefined) streams.set(key, (b = { field, parts: [], members: [], length: 0 }))
    b.parts.push(text)
    b.members.push({ ...member, start: b.length, end: b.length + text.length })
    b.length += text.length
  }
  for (let r = Math.max(0, recordOfIndex(log, from)); r < texts.length && texts.firstIndexOf(r) <= to; r++) {
    const first = texts.firstIndexOf(r)
    if (texts.isRow(r)) {
      const row = JSON.parse(texts.text(r)) as PackedRow
      const tool = row.type === 'tool-call-chunks'
      const payload = (tool ? row.data.args : row.data.texts) as readonly string[]
      const chunkType = tool ? 'tool-call-delta' : row.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta'
      const key = `${row.data.turn}/${row.data.step}/${chunkType}/${row.data.index}`
      const field = tool ? 'data.chunk.argumentsDelta' : 'data.chunk.text'
      for (let k = 0; k < packedRowSize(row); k++) {
        add(key, field, payload[k] as string, {
          index: first + k,
          seq: row.seq0 + k,
          line: texts.lineOf(r),
          record: r,
          member: k,
        })
      }
      continue
    }
    const text = texts.text(r)
    if (!text.includes('"assistant/chunk"')) continue
    let event: unknown
    try {
      event = JSON.parse(text)
    } catch {
      continue
    }
    if (!isDelta(event)) continue
    const e = event as { seq?: unknown; data: { turn?: unknown; step?: unknown; chunk: Record<string, unknown> } }
    const chunk = e.data.chunk
    const tool = chunk['type'] === 'tool-call-delta'
    const delta = tool ? chunk['argumentsDelta'] : chunk['text']
    if (typeof delta !== 'string' || typeof e.seq !== 'number') continue
    const key = `${String(e.data.turn)}/${String(e.data.step)}/${String(chunk['type'])}/${String(chunk['index'])}`
    add(key, tool ? 'data.chunk.argumentsDelta' : 'data.chunk.text', delta, {
      index: first,
      seq: e.seq,
      line: texts.lineOf(r),
      record: r,
      member: -1,
    })
  }
  return [...streams.values()].map((b) => {
    const text = b.parts.join('')
    const members = b.members
    return {
      field: b.field,
      text,
      members,
      memberAt(at: number): StreamMember {
        let lo = 0
        let hi = members.length
        while (lo < hi) {
          const mid = (lo + hi) >>> 1
          if ((members[mid] as StreamMember).end <= at) lo = mid + 1
          else hi = mid
        }
        return members[Math.min(lo, members.length - 1)] as StreamMember
      },
    }
  })
}
