/**
 * The soak's writer, a child process of its own (so the followers' work cannot slow it): appends a generated
 * session (src/generate, default realistic knobs) at a steady event rate, one durable batch per 200 ms as
 * the harness writes them (one zstd frame each, or JSONL lines). Prints one JSON line per second and a last one
 * with `done`. Usage: tsx src/soak/soak-writer.ts <path> <eventsPerSecond> <seconds> <zstd|jsonl> [sessionId] [seed]
 */

import { open } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { batchText, headerLine, recordEventCount, streamSession } from '../generate/index.ts'
import { zstdFrameAsync } from '../test-support/live-test-kit.ts'

const [path, rateArg, secondsArg, encoding = 'zstd', id = 'session-soak', seedArg = '1'] = process.argv.slice(2)
if (path === undefined || rateArg === undefined || secondsArg === undefined) {
  process.stderr.write('usage: soak-writer <path> <eventsPerSecond> <seconds> <zstd|jsonl> [sessionId] [seed]\n')
  process.exit(2)
}
const rate = Number(rateArg)
const seconds = Number(secondsArg)
const zstd = encoding === 'zstd'
const TICK_MS = 200

const stream = streamSession({ seed: Number(seedArg), targetEvents: Math.ceil(rate * seconds * 1.1) + 1000 })
const batches = stream.batches[Symbol.iterator]()
const encode = async (text: string): Promise<Uint8Array> => (zstd ? zstdFrameAsync(text) : new TextEncoder().encode(text))

const fh = await open(path, 'w')
await fh.write(await encode(headerLine({ ...stream.header, id })))
let events = 0
let bytes = 0
let frames = 0
let exhausted = false
const start = Date.now()
let lastReport = 0
const report = (done: boolean): void => {
  const line = { t: Date.now() - start, events, lastSeq: events - 1, bytes, frames, ...(done ? { done, exhausted } : {}) }
  process.stdout.write(JSON.stringify(line) + '\n')
}
while (Date.now() - start < seconds * 1000) {
  const target = Math.floor((rate * (Date.now() - start)) / 1000)
  let text = ''
  while (events < target) {
    const next = batches.next()
    if (next.done === true) {
      exhausted = true
      break
    }
    for (const record of next.value) events += recordEventCount(record)
    text += batchText(next.value)
  }
  if (text !== '') {
    const frame = await encode(text)
    // One write per batch: a reader sees either nothing of it or, at worst, a torn tail it must hold back.
    await fh.write(frame)
    bytes += frame.length
    frames++
  }
  if (exhausted) break
  if (Date.now() - lastReport >= 1000) {
    lastReport = Date.now()
    report(false)
  }
  await sleep(TICK_MS)
}
await fh.close()
report(true)
