/**
 * A dropped file's SHA-256, computed by the worker while it reads the file (what a `?file=` link names it by): equal
 * to Node's digest of the same bytes, for a file read in many slices, for a file whose fold the decoded-bytes budget
 * stopped early (the digest still covers the whole file), and absent for a stream (nothing to name).
 */

import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generatePreset, toJsonl } from '../generate/index.ts'
import { PROTOCOL_VERSION, type LensResponse } from '../protocol/messages.ts'
import type { LogSummary } from '../protocol/log-summary.ts'
import { createLensHost } from './lens-host.ts'

const BYTES = new TextEncoder().encode(toJsonl(generatePreset('10k', 2)))
const SHA = createHash('sha256').update(BYTES).digest('hex')

async function finalSummary(posted: LensResponse[]): Promise<LogSummary> {
  await expect.poll(() => posted.some((m) => m.type === 'summary' && m.summary.final), { timeout: 60_000 }).toBe(true)
  const last = posted.filter((m) => m.type === 'summary').at(-1) as Extract<LensResponse, { type: 'summary' }>
  return last.summary
}

describe('the file digest', () => {
  it('is the SHA-256 of every byte of a dropped file, read in slices', async () => {
    expect(BYTES.length).toBeGreaterThan(1024 * 1024)
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message))
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 1, file: new File([BYTES], '10k.jsonl') })
    const summary = await finalSummary(posted)
    expect(summary.sourceSha256).toBe(SHA)
    // Interim summaries carry none: the digest is of the whole file.
    const interim = posted.flatMap((m) => (m.type === 'summary' && !m.summary.final ? [m.summary] : []))
    expect(interim.length).toBeGreaterThan(0)
    expect(interim.every((s) => s.sourceSha256 === null)).toBe(true)
  })

  it('covers the whole file when the decoded-bytes budget stopped the fold early', async () => {
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message), { decodedBytesBudget: 64 * 1024 })
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 1, file: new File([BYTES], '10k.jsonl') })
    const summary = await finalSummary(posted)
    expect(summary.sizeBudget).not.toBeNull()
    expect(summary.sourceSha256).toBe(SHA)
  })

  it('is absent for a stream', async () => {
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message))
    handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId: 2, name: 's.jsonl', totalBytes: BYTES.length, live: false })
    handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId: 2, bytes: BYTES.slice().buffer })
    handle({ v: PROTOCOL_VERSION, type: 'load-end', loadId: 2 })
    expect((await finalSummary(posted)).sourceSha256).toBeNull()
  })
})
