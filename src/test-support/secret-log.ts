/**
 * Logs with secrets at known places, for the secrets and redaction tests: a valid generated log (LogBuilder) with
 * planted secrets written where agent logs carry them: the user's text, a tool result, a tool call's JSON arguments,
 * an assistant's text streamed as deltas (split across them, plain lines or packed rows), its reasoning, and a
 * compaction summary. Every plant records its seq and value, so a test knows exactly what must be found.
 */

import { packBatch, type GeneratedEvent } from '../generate/index.ts'
import { LogBuilder, type TestEvent } from './log-builder.ts'
import { plantedSecrets, type PlantedSecret } from './planted-secrets.ts'
import { zstdFrames } from './zstd-frames.ts'

export type PlantPlace = 'user' | 'tool-result' | 'tool-arguments' | 'assistant-text' | 'reasoning' | 'summary'

export interface Plant {
  readonly place: PlantPlace
  readonly seq: number
  readonly secret: PlantedSecret
}

export interface PlantedLog {
  readonly events: TestEvent[]
  readonly plants: Plant[]
}

const HEADER = {
  type: 'session',
  version: 0,
  id: 'planted',
  createdAt: 1_700_000_000_000,
  cwd: '/home/alice/proj',
  delegationDepth: 0,
}

type Json = Record<string, unknown>
const data = (e: TestEvent): Json => e['data'] as Json
const message = (e: TestEvent): Json => data(e)['message'] as Json

/** Split `text` into `n` non-empty deltas (fewer when it is shorter), at positions drawn by `pick`. */
function split(text: string, n: number, pick: (max: number) => number): string[] {
  const cuts = new Set<number>()
  for (let i = 1; i < n && cuts.size < text.length - 1; i++) cuts.add(1 + pick(text.length - 2))
  const sorted = [...cuts].sort((a, b) => a - b)
  const parts: string[] = []
  let at = 0
  for (const c of sorted) {
    parts.push(text.slice(at, c))
    at = c
  }
  parts.push(text.slice(at))
  return parts
}

/**
 * Plant secrets into `events` (a valid log, changed in place: text only, so its fold is unchanged). `choose(max)`
 * draws an integer in [0, max] (a fast-check or seeded source); `seed` picks the secrets' bodies.
 */
export function plantSecrets(events: TestEvent[], choose: (max: number) => number, seed: number, count = 4): PlantedLog {
  const secrets = plantedSecrets(seed)
  const plants: Plant[] = []
  const used = new Set<number>()
  const candidates = (place: PlantPlace): TestEvent[] =>
    events.filter((e) => {
      if (used.has(e['seq'] as number)) return false
      const type = e['type']
      if (place === 'user') return type === 'user/message' && (message0(e)?.['source'] as Json | undefined)?.['kind'] === 'user'
      if (place === 'summary')
        return type === 'user/message' && (message0(e)?.['source'] as Json | undefined)?.['kind'] === 'plugin'
      if (place === 'tool-result') return type === 'tool/result' && e['surfaceOp'] === 'append'
      if (place === 'tool-arguments') return type === 'assistant/message' && hasContent(e, 'tool-call')
      return type === 'assistant/message' && hasContent(e, 'text')
    })
  const places: PlantPlace[] = ['user', 'tool-result', 'tool-arguments', 'assistant-text', 'reasoning', 'summary']
  for (let k = 0; k < count; k++) {
    const place = places[choose(places.length - 1)] as PlantPlace
    const list = candidates(place)
    if (list.length === 0) continue
    const event = list[choose(list.length - 1)] as TestEvent
    const secret = secrets[choose(secrets.length - 1)] as PlantedSecret
    if (plants.some((p) => p.secret.value === secret.value)) continue
    used.add(event['seq'] as number)
    plantOne(events, event, place, secret, choose)
    plants.push({ place, seq: event['seq'] as number, secret })
  }
  return { events, plants }
}

function message0(e: TestEvent): Json | undefined {
  const d = data(e)
  return (d['message'] as Json | undefined) ?? d
}

function hasContent(e: TestEvent, type: string): boolean {
  const content = message(e)['content']
  return Array.isArray(content) && content.some((c: Json) => c['type'] === type)
}

function plantOne(
  events: TestEvent[],
  event: TestEvent,
  place: PlantPlace,
  secret: PlantedSecret,
  choose: (max: number) => number,
): void {
  const text = `before ${secret.text} after`
  if (place === 'user' || place === 'summary') {
    const content = (message0(event) as Json)['content'] as Json[]
    content[0] = { type: 'text', text }
    if (place === 'summary') {
      // The compaction/summary that produced this checkpoint says the same.
      const id = ((message0(event) as Json)['source'] as Json)['compactionId']
      const summary = events.find((e) => e['type'] === 'compaction/summary' && data(e)['compactionId'] === id)
      if (summary !== undefined) data(summary)['summary'] = [{ type: 'text', text }]
    }
    return
  }
  if (place === 'tool-result') {
    const block = (message(event)['content'] as Json[])[0] as Json
    block['content'] = [{ type: 'text', text }]
    return
  }
  const content = message(event)['content'] as Json[]
  if (place === 'tool-arguments') {
    const call = content.find((c) => c['type'] === 'tool-call') as Json
    call['arguments'] = JSON.stringify({ command: text })
    return
  }
  // Assistant text or reasoning: the message says it whole; its stream (the chunks it came from) says it split.
  const blockType = place === 'reasoning' ? 'reasoning' : 'text'
  const at = content.findIndex((c) => c['type'] === 'text')
  if (place === 'reasoning') content.splice(at, 0, { type: 'reasoning', text })
  else content[at] = { type: 'text', text }
  const chunkType = place === 'reasoning' ? 'reasoning-delta' : 'text-delta'
  const sources = (event['sourceEventSeqs'] as number[] | undefined) ?? []
  const chunks = events.filter((e) => sources.includes(e['seq'] as number) && e['type'] === 'assistant/chunk')
  if (chunks.length === 0) return
  const parts = split(text, chunks.length, choose)
  for (const [i, chunk] of chunks.entries()) {
    ;(data(chunk)['chunk'] as Json) = { type: chunkType, index: 0, text: parts[i] ?? '' }
  }
  void blockType
}

/**
 * The planted corpus: a log long enough to hold `count` of every place (user messages, assistant messages with
 * streamed text and tool calls, tool results, compactions), with every secret of `plantedSecrets(seed)` planted in
 * `place`, each in its own event.
 */
export function corpusLog(place: PlantPlace, seed: number): PlantedLog {
  const secrets = plantedSecrets(seed)
  const builder = new LogBuilder()
  for (let k = 0; k < secrets.length; k++) {
    builder.apply({ kind: 'user', text: `request ${k}` })
    builder.apply({ kind: 'assistant', text: `answer ${k}`, chunks: 5, reasoning: false })
    builder.apply({ kind: 'tools', calls: 1, resultSize: 20 })
    builder.apply({ kind: 'assistant', text: `more ${k}`, chunks: 4, reasoning: false })
    builder.apply({ kind: 'compact', from: 0, length: 2 })
    builder.apply({ kind: 'turn-boundary' })
  }
  const events = builder.events
  const plants: Plant[] = []
  const used = new Set<number>()
  let n = 0
  const choose = (max: number): number => (n = (n * 31 + 7) % 1009) % (max + 1)
  for (const secret of secrets) {
    const event = events.find((e) => !used.has(e['seq'] as number) && fits(events, e, place))
    if (event === undefined) throw new Error(`no room for a ${place} plant`)
    used.add(event['seq'] as number)
    plantOne(events, event, place, secret, choose)
    plants.push({ place, seq: event['seq'] as number, secret })
  }
  return { events, plants }
}

function fits(events: TestEvent[], e: TestEvent, place: PlantPlace): boolean {
  const type = e['type']
  if (place === 'user') return type === 'user/message' && (message0(e)?.['source'] as Json | undefined)?.['kind'] === 'user'
  if (place === 'summary') return type === 'user/message' && (message0(e)?.['source'] as Json | undefined)?.['kind'] === 'plugin'
  if (place === 'tool-result') return type === 'tool/result' && e['surfaceOp'] === 'append'
  if (place === 'tool-arguments') return type === 'assistant/message' && hasContent(e, 'tool-call')
  const sources = (e['sourceEventSeqs'] as number[] | undefined) ?? []
  return type === 'assistant/message' && hasContent(e, 'text') && sources.length > 0 && events.length > 0
}

/** The log as JSONL; with `pack`, runs of three or more deltas as packed rows (the harness's storage encoding). */
export function plantedJsonl(events: readonly TestEvent[], pack: boolean): string {
  const header = JSON.stringify(HEADER)
  const records = pack ? packBatch(events as unknown as GeneratedEvent[]) : events
  return [header, ...(records as unknown[]).map((r) => JSON.stringify(r))].join('\n') + '\n'
}

/** The same log as the harness's zstd container: the header's frame, then a frame per few lines. */
export function plantedZstd(jsonl: string, linesPerFrame = 5): Uint8Array {
  const lines = jsonl.split('\n').slice(0, -1)
  // The harness's container: the header alone in the first frame.
  const frames: string[] = [`${lines[0] as string}\n`]
  for (let i = 1; i < lines.length; i += linesPerFrame) frames.push(lines.slice(i, i + linesPerFrame).join('\n') + '\n')
  return zstdFrames(frames)
}
