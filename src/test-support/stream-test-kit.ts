/**
 * Vitest-side helpers shared by the live stream integration suites (stream, faults): per-test cleanup, a generated
 * session as header + batch texts, and the one check they all end with. Kept apart from live-test-kit.ts, which
 * the soak (a plain Node process, no test runner) imports too.
 */

import { afterEach, expect } from 'vitest'
import { batchText, streamSession } from '../generate/index.ts'
import { diskEvents, digest, waitFor, type Follower } from './live-test-kit.ts'

/** Closers run after each test, newest first (followers before the server they follow). */
export function cleanupAfterEach(): Array<() => unknown> {
  const cleanup: Array<() => unknown> = []
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c()
  })
  return cleanup
}

/** A generated session (no huge tool results: these suites are about the stream, not size) as header and batches. */
export function generated(id: string, seed: number, targetEvents: number): { header: string; batches: string[] } {
  const s = streamSession({ seed, targetEvents, hugeToolResultEvery: 0 })
  return { header: JSON.stringify({ ...s.header, id }), batches: [...s.batches].map(batchText) }
}

/** Every follower reaches the file's last seq and holds exactly its events (count and content hash), with no protocol violation. */
export async function expectFollowersHoldFile(followers: readonly Follower[], path: string, timeoutMs?: number): Promise<void> {
  const want = await diskEvents(path)
  await waitFor(`followers at seq ${want.length - 1}`, () => followers.every((f) => f.lastSeq === want.length - 1), timeoutMs)
  for (const f of followers) {
    const got = await f.events()
    expect(got.length).toBe(want.length)
    expect(digest(got)).toBe(digest(want))
    expect(f.violations).toEqual([])
  }
}

/** A short user message appended to the surface, as one JSONL line. */
export function userLine(seq: number): string {
  const data = { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `hi ${seq}` }], source: { kind: 'user' } }
  return `${JSON.stringify({ type: 'user/message', seq, time: seq, data, surfaceOp: 'append' })}\n`
}
