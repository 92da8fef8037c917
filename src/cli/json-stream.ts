/**
 * Streams a JSON value to a writable in pieces, byte-for-byte what `JSON.stringify(value)` gives, so a
 * `--json` answer over a 1.3M-event log never exists as one giant string (nor twice, once more for the
 * trailing newline). Arrays are written in batches of elements; a batch is one `write`, and a full
 * stream buffer is awaited before the next batch.
 */

import type { Writable } from 'node:stream'

/** Elements per write: large enough that per-write overhead vanishes, small enough to stay a few hundred KB. */
const BATCH = 8192

type Sink = { write(text: string): Promise<void> }

function sinkOf(out: Writable): Sink {
  return {
    write: (text) =>
      out.write(text)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            const onDrain = (): void => {
              out.off('error', onError)
              resolve()
            }
            const onError = (error: Error): void => {
              out.off('drain', onDrain)
              reject(error)
            }
            out.once('drain', onDrain)
            out.once('error', onError)
          }),
  }
}

/** True when JSON.stringify would write this array slot as `null` (what it does for non-JSON values). */
const asArrayElement = (value: unknown): string => JSON.stringify(value) ?? 'null'

async function writeValue(sink: Sink, value: unknown, pending: string[]): Promise<void> {
  if (Array.isArray(value) && value.length > BATCH) {
    pending.push('[')
    for (let i = 0; i < value.length; i += BATCH) {
      const end = Math.min(value.length, i + BATCH)
      let piece = i === 0 ? '' : ','
      for (let j = i; j < end; j++) piece += (j === i ? '' : ',') + asArrayElement(value[j])
      pending.push(piece)
      await sink.write(pending.join(''))
      pending.length = 0
    }
    pending.push(']')
    return
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  ) {
    pending.push('{')
    let first = true
    for (const [key, member] of Object.entries(value)) {
      // JSON.stringify skips object members it cannot write (undefined, functions, symbols).
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue
      pending.push((first ? '' : ',') + JSON.stringify(key) + ':')
      first = false
      await writeValue(sink, member, pending)
    }
    pending.push('}')
    return
  }
  pending.push(JSON.stringify(value) ?? 'null')
}

/** Write `value` as compact JSON plus a newline; resolves when the last piece is accepted. */
export async function writeJsonLine(out: Writable, value: unknown): Promise<void> {
  const sink = sinkOf(out)
  const pending: string[] = []
  await writeValue(sink, value, pending)
  pending.push('\n')
  await sink.write(pending.join(''))
}
