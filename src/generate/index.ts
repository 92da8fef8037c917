/** Public entry of the log generator: realistic, valid, reproducible dsh session logs for tests, demo and bench. */

import { headerLine, batchText, toJsonl } from './jsonl.ts'
import { resolveOptions, type GenerateOptions } from './options.ts'
import { presetOptions, PRESET_NAMES, type PresetName } from './presets.ts'
import { SessionScript } from './session-script.ts'
import type { GeneratedBatch, GeneratedHeader, GeneratedRecord, GeneratedSession } from './types.ts'
import { demoSessions } from './demo/index.ts'

export type { GenerateOptions } from './options.ts'
export type { PresetName } from './presets.ts'
export type * from './types.ts'
export { Rng } from './prng.ts'
export { packBatch } from './pack.ts'
export { headerLine, batchText, toJsonl, presetOptions, PRESET_NAMES }

/** A session being generated: the header now, the batches lazily (memory bounded by one turn). */
export interface SessionStream {
  readonly header: GeneratedHeader
  readonly batches: Iterable<GeneratedBatch>
}

export function streamSession(options: GenerateOptions): SessionStream {
  const resolved = resolveOptions(options)
  const script = new SessionScript(resolved)
  function* batches(): Generator<GeneratedBatch> {
    // With `endInToolCall`, turns go on past the target until one crashes in a tool call.
    while (
      !script.crashed &&
      (script.events < resolved.targetEvents || (resolved.endInToolCall && !script.replacementCapReached)) &&
      !script.replacementCapReached
    ) {
      script.runTurn()
      yield* script.drain()
    }
    script.finish()
    yield* script.drain()
  }
  return { header: script.header, batches: batches() }
}

/** Events a record stands for: a packed row counts one per member. */
export function recordEventCount(record: GeneratedRecord): number {
  if ('seq0' in record) return (record.data.texts ?? record.data.args ?? []).length
  return 1
}

export function generateSession(options: GenerateOptions): GeneratedSession {
  const stream = streamSession(options)
  const batches: GeneratedBatch[] = []
  let eventCount = 0
  for (const batch of stream.batches) {
    batches.push(batch)
    for (const record of batch) eventCount += recordEventCount(record)
  }
  return { header: stream.header, batches, eventCount }
}

export function generatePreset(name: PresetName, seed = 1): GeneratedSession {
  return generateSession(presetOptions(name, seed))
}

/** The demo log shipped with the app (`npm run demo`): a scripted coding session, deterministic (see demo/). */
export function demoSessionJsonl(): string {
  return toJsonl(demoSessions().parent)
}

export { demoSessions, demoFiles, childPath, type DemoSessions, type DemoFile } from './demo/index.ts'
