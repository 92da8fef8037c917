/** The streamed JSON writer is byte-for-byte JSON.stringify, including arrays past the batch size. */

import fc from 'fast-check'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { writeJsonLine } from './json-stream.ts'

async function streamed(value: unknown): Promise<{ text: string; writes: number }> {
  const out = new PassThrough({ highWaterMark: 1024 })
  const chunks: string[] = []
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')))
  await writeJsonLine(out, value)
  out.end()
  await new Promise((resolve) => out.on('end', resolve))
  return { text: chunks.join(''), writes: chunks.length }
}

describe('writeJsonLine', () => {
  it('equals JSON.stringify on any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        expect((await streamed(value)).text).toBe(JSON.stringify(value) + '\n')
      }),
      { numRuns: 500 },
    )
  })

  it('writes big arrays in pieces, still exactly JSON.stringify', async () => {
    const value = {
      nodes: Array.from({ length: 50_000 }, (_, i) => i),
      replacements: Array.from({ length: 9000 }, (_, i) => ({ seq: i, shadowedSeqs: [i - 1, i] })),
      skipped: undefined,
      holes: [1, undefined, () => 0, 2],
      nested: { deep: Array.from({ length: 20_000 }, () => 'x') },
    }
    const { text, writes } = await streamed(value)
    expect(text).toBe(JSON.stringify(value) + '\n')
    expect(writes).toBeGreaterThan(5)
  })
})
