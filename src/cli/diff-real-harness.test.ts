/**
 * Comparing runs the real harness wrote (`../shared/real-dsh`, keyless: only the model is a scripted double), each in
 * a private DSH_HOME, all in one workdir (the system prompt names it):
 * - the same prompt twice: equal once ids and times are left out, `dsh-lens diff` exits 0;
 * - prompts that differ in their tool loops (`LOOP1` vs `LOOP3`): the prompt itself differs, so the runs part at the
 *   first request (`user-message`), and the steps only the longer run made are listed unpaired (`length`);
 * - `--compact` vs not: the same first step, then `surface-op` where the compacted run sends its summary;
 * - a fork made through the host's own `session.fork` (the web UI's "fork from here"): the seed is one block, and
 *   after it the runs are equal (the same prompt), part at the first user message (another prompt), or part where
 *   the unprompted child stopped: at its `session/end-seed`, the first event after the seed.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareSessions, LensLog, loadContentChecksum, stepRequest, type SessionComparison } from '../core/index.ts'
import { realDshAvailable, runHeadless } from '../test-support/real-dsh.ts'
import { createRealHost, type RealHost } from '../test-support/real-dsh-host.ts'

const enabled = realDshAvailable()
const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const checksum = await loadContentChecksum()

function read(path: string): LensLog {
  const log = new LensLog({ checksum })
  log.push(readFileSync(path))
  log.finish()
  return log
}

function lens(args: readonly string[]) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The seq of the first `user/message` a person wrote at or after seq `from`. */
function firstPrompt(log: LensLog, from: number): number {
  for (let i = from; i < log.length; i++) {
    const event = log.event(i)
    const source = (event?.data as { source?: { kind?: string } } | undefined)?.source
    if (event?.type === 'user/message' && source?.kind === 'user') return i
  }
  return -1
}

describe.runIf(enabled)('comparing real harness runs', () => {
  const root = mkdtempSync(join(tmpdir(), 'lens-diff-real-'))
  const workdir = join(root, 'work')
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const headless = (name: string, prompt: string, flags: string[] = []) =>
    runHeadless(prompt, { home: join(root, name), workdir, flags })

  it('the same prompt twice: equal after the ignored fields, exit 0', async () => {
    const [a, b] = await Promise.all([headless('same-a', 'hello there'), headless('same-b', 'hello there')])
    const out = lens(['diff', a, b, '--json'])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    const result = JSON.parse(out.stdout) as SessionComparison
    expect(result.firstDivergence).toBeNull()
    expect(result.pairs.length).toBe(2)
    expect(result.pairs.every((p) => p.same)).toBe(true)
    // What differs in every run really differs here: the session ids, and the clocks.
    expect(read(a).header?.id).not.toBe(read(b).header?.id)
  }, 120_000)

  it('LOOP1 vs LOOP3: the prompt differs first; the longer run’s extra steps are unpaired', async () => {
    const [a, b] = await Promise.all([headless('loop-a', 'LOOP1 go'), headless('loop-b', 'LOOP3 go')])
    const la = read(a)
    const result = compareSessions(la, read(b))
    const prompt = firstPrompt(la, 0)
    expect(result.firstDivergence).toMatchObject({
      kind: 'user-message',
      a: { seq: prompt, turn: 1, step: 1 },
      b: { seq: prompt, turn: 1, step: 1 },
    })
    // LOOP1: a bash step, one more, the answer; LOOP3: two more bash steps before the answer.
    expect(result.pairs.map((p) => [p.a?.step ?? null, p.b?.step ?? null, p.kinds.includes('length')])).toStrictEqual([
      [1, 1, false],
      [2, 2, false],
      [3, 3, false],
      [null, 4, true],
      [null, 5, true],
    ])
    expect(result.totals.a.toolCalls).toStrictEqual([{ name: 'bash', calls: 2, failures: 0 }])
    expect(result.totals.b.toolCalls).toStrictEqual([{ name: 'bash', calls: 4, failures: 0 }])
  }, 120_000)

  it('--compact vs not: the same first step, then surface-op where the compacted run sends its summary', async () => {
    const [a, b] = await Promise.all([
      headless('compact-a', 'BIG LOOP2 go', ['--compact']),
      headless('compact-b', 'BIG LOOP2 go'),
    ])
    const la = read(a)
    const lb = read(b)
    const result = compareSessions(la, lb)
    expect(result.pairs[0]?.same).toBe(true)
    const first = result.firstDivergence
    expect(first).toMatchObject({ kind: 'surface-op', a: { turn: 1, step: 2 }, b: { turn: 1, step: 2 } })
    // A's seq is a replacement (the compaction's summary) standing at the place of B's seq in the requests.
    expect((la.event(first?.a.seq as number)?.surfaceOp as { op?: string } | undefined)?.op).toBe('replace')
    const index = result.pairs[1]?.requestDiff?.firstDifference as number
    expect(stepRequest(la, 1)?.messages[index]?.seq).toBe(first?.a.seq)
    expect(stepRequest(lb, 1)?.messages[index]?.seq).toBe(first?.b.seq)
    expect(result.totals.a.compactions).toBeGreaterThan(0)
    expect(result.totals.b.compactions).toBe(0)
  }, 120_000)

  describe('a fork made through the host', () => {
    let host: RealHost
    const logs: Record<string, LensLog> = {}
    let parentId = ''
    let seedLength = 0

    beforeAll(async () => {
      host = await createRealHost({ delayMs: 0 })
      await host.start()
      parentId = await host.prompt('new', 'NOTOOL first question')
      await host.settled(parentId, 1)
      // Three forks of the parent's completed turn, before anything else happens to it.
      const [same, other, idle] = [
        (await host.rpc('session.fork', { sessionId: parentId }))['sessionId'] as string,
        (await host.rpc('session.fork', { sessionId: parentId }))['sessionId'] as string,
        (await host.rpc('session.fork', { sessionId: parentId }))['sessionId'] as string,
      ]
      await host.prompt(parentId, 'NOTOOL second question')
      await host.prompt(same, 'NOTOOL second question')
      await host.prompt(other, 'NOTOOL another way')
      logs['parent'] = await host.settled(parentId, 2)
      logs['same'] = await host.settled(same, 2)
      logs['other'] = await host.settled(other, 2)
      logs['idle'] = await host.settled(idle, 1)
      seedLength = logs['same'].header?.seedLength as number
    }, 240_000)

    afterAll(async () => {
      await host?.remove()
    }, 60_000)

    it('names the parent and the seed, and compares nothing inside it', () => {
      expect(seedLength).toBeGreaterThan(0)
      const result = compareSessions(logs['parent'] as LensLog, logs['same'] as LensLog)
      expect(result.fork).toStrictEqual({ parent: parentId, seedLength })
      for (const p of result.pairs) {
        expect(p.a?.atSeq).toBeGreaterThan(seedLength)
        expect(p.b?.atSeq).toBeGreaterThan(seedLength)
      }
      // The same prompt after the fork: the same run from there on.
      expect(result.firstDivergence).toBeNull()
      expect(result.pairs.map((p) => [p.a?.turn, p.b?.turn, p.same])).toStrictEqual([[2, 2, true]])
    })

    it('another prompt after the fork: they part at the first user message after the seed', () => {
      const parent = logs['parent'] as LensLog
      const other = logs['other'] as LensLog
      expect(other.event(seedLength)?.type).toBe('session/end-seed')
      const result = compareSessions(parent, other)
      expect(result.fork).toStrictEqual({ parent: parentId, seedLength })
      expect(result.firstDivergence).toMatchObject({
        kind: 'user-message',
        a: { seq: firstPrompt(parent, seedLength), turn: 2, step: 1 },
        b: { seq: firstPrompt(other, seedLength), turn: 2, step: 1 },
      })
      // Two forks of one parent share the seed the same way.
      const siblings = compareSessions(logs['same'] as LensLog, other)
      expect(siblings.fork).toStrictEqual({ parent: parentId, seedLength })
      expect(siblings.firstDivergence?.kind).toBe('user-message')
    })

    it('a fork never prompted stopped at the first event after the seed', () => {
      const idle = logs['idle'] as LensLog
      expect(idle.length).toBe(seedLength + 1)
      const result = compareSessions(logs['parent'] as LensLog, idle)
      expect(result.firstDivergence).toMatchObject({
        kind: 'length',
        a: { turn: 2, step: 1 },
        b: { seq: seedLength, turn: 1, step: 1 },
      })
    })
  })
})
