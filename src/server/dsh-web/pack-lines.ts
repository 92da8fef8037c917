/**
 * The host sends every streamed delta as its own `assistant/chunk` event; the harness's log packs runs of them into
 * `text-chunks` / `reasoning-chunks` / `tool-call-chunks` rows (a generated 100k-event session: 101,883 events in
 * 9,404 records on disk). A page catching up on a host session would otherwise decode ten times the lines of the same
 * file. So a batch for the page packs runs of three or more deltas of one block into a row, and keeps a row only when
 * its expansion (the core's own, as the page's decoder does it) gives back each original event text exactly: the page
 * holds the same events either way, only fewer lines. A live tail, one event per append, is never packed.
 */

import { expandPackedMember, validatePackedRow, type PackedRowTag } from '../../core/index.ts'

const MIN_RUN = 3

interface Delta {
  readonly turn: unknown
  readonly step: unknown
  readonly kind: 'text-delta' | 'reasoning-delta' | 'tool-call-delta'
  readonly index: unknown
  readonly id: unknown
  readonly name: unknown
  readonly hasName: boolean
  readonly payload: string
  readonly seq: number
  readonly time: number
}

type Json = Record<string, unknown>

function deltaOf(line: string): Delta | undefined {
  // Cheap test first: most lines of a catch-up are chunks, the rest need no parse at all.
  if (!line.startsWith('{"type":"assistant/chunk"')) return undefined
  let event: Json
  try {
    event = JSON.parse(line) as Json
  } catch {
    return undefined
  }
  const data = event['data'] as Json | undefined
  const chunk = data?.['chunk'] as Json | undefined
  const kind = chunk?.['type']
  if (kind !== 'text-delta' && kind !== 'reasoning-delta' && kind !== 'tool-call-delta') return undefined
  const payload = kind === 'tool-call-delta' ? chunk?.['argumentsDelta'] : chunk?.['text']
  const seq = event['seq']
  const time = event['time']
  if (typeof payload !== 'string' || typeof seq !== 'number' || typeof time !== 'number') return undefined
  return {
    turn: data?.['turn'],
    step: data?.['step'],
    kind,
    index: chunk?.['index'],
    id: chunk?.['id'],
    name: chunk?.['name'],
    hasName: chunk !== undefined && Object.hasOwn(chunk, 'name'),
    payload,
    seq,
    time,
  }
}

function sameRun(a: Delta, b: Delta): boolean {
  return (
    a.turn === b.turn &&
    a.step === b.step &&
    a.kind === b.kind &&
    a.index === b.index &&
    a.id === b.id &&
    a.hasName === b.hasName &&
    a.name === b.name &&
    b.seq === a.seq + 1
  )
}

const TAG: Record<Delta['kind'], PackedRowTag> = {
  'text-delta': 'text-chunks',
  'reasoning-delta': 'reasoning-chunks',
  'tool-call-delta': 'tool-call-chunks',
}

/** One row for `run` (and its original texts), or undefined when the row would not expand back to them exactly. */
function rowFor(run: readonly Delta[], texts: readonly string[]): string | undefined {
  const first = run[0] as Delta
  const dt = run.slice(1).map((d, i) => d.time - (run[i] as Delta).time)
  const payload = run.map((d) => d.payload)
  const base = { turn: first.turn, step: first.step, index: first.index, dt }
  const data =
    first.kind === 'tool-call-delta'
      ? { ...base, id: first.id, ...(first.hasName ? { name: first.name } : {}), args: payload }
      : { ...base, texts: payload }
  const record = { type: TAG[first.kind], seq0: first.seq, time0: first.time, data }
  try {
    const row = validatePackedRow(JSON.parse(JSON.stringify(record)) as Json, record.type)
    for (let k = 0; k < run.length; k++) if (JSON.stringify(expandPackedMember(row, k)) !== texts[k]) return undefined
  } catch {
    return undefined
  }
  return JSON.stringify(record)
}

/** The same events as `lines` (one JSON event each, contiguous seqs), with runs of deltas packed into rows. */
export function packLines(lines: readonly string[]): string[] {
  const out: string[] = []
  let i = 0
  while (i < lines.length) {
    const head = deltaOf(lines[i] as string)
    const run: Delta[] = head === undefined ? [] : [head]
    let j = i + 1
    if (head !== undefined) {
      for (; j < lines.length; j++) {
        const next = deltaOf(lines[j] as string)
        if (next === undefined || !sameRun(run[run.length - 1] as Delta, next)) break
        run.push(next)
      }
    }
    const row = run.length >= MIN_RUN ? rowFor(run, lines.slice(i, j)) : undefined
    if (row !== undefined) out.push(row)
    else for (let k = i; k < j; k++) out.push(lines[k] as string)
    i = j
  }
  return out
}
