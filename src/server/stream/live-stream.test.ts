/** Integration: real writers (zstd frames via the system binary, JSONL with packed rows) against the server and TailClient followers. */

import { spawn, type ChildProcess } from 'node:child_process'
import { rename, truncate, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { Follower, LogWriter, diskEvents, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { cleanupAfterEach, generated, expectFollowersHoldFile } from '../../test-support/stream-test-kit.ts'

const cleanup = cleanupAfterEach()

/**
 * These tests pace a real writer (one `zstd` process per frame) for seconds and wait through a server restart: on a
 * machine with both cores busy they take most of the default 60 s, so they get a budget of their own.
 */
const PACED_WRITER_BUDGET_MS = 180_000

async function serverOn(root: string, token: string, port?: number): Promise<LensServer> {
  // A small ring forces snapshots and resumes through the on-disk index (frame starts / line starts).
  const server = await startLensServer({
    roots: [root],
    token,
    pollMs: 250,
    ringBytes: 16 * 1024,
    ...(port === undefined ? {} : { port }),
  })
  return server
}

test(
  'zstd: followers keep up with a fast writer through a server restart and a torn frame',
  async () => {
    const root = await tempRoot()
    const id = 'session-zstd-live'
    const path = await sessionPath(root, id, true)
    const writer = new LogWriter(path, true)
    const log = generated(id, 11, 2500)
    await writer.create(log.header)
    // ~40 ms per batch of ~23 events: several hundred events/s, one frame per batch as the harness writes.
    const pace = writer.pacer(log.batches, 40)
    const write = pace.write
    await write(15)
    const token = 'restart-token-0123456789'
    let server = await serverOn(root, token)
    const port = server.port
    cleanup.push(() => server.close())
    const followers = [
      new Follower(server.streamUrl, token, { sessionId: id }),
      new Follower(server.streamUrl, token, { sessionId: id }, 48),
    ]
    cleanup.push(() => followers.forEach((f) => f.close()))
    await write(20)
    await waitFor('followers streaming', () => followers.every((f) => f.lastSeq > 0))

    await server.close()
    await waitFor('followers notice the restart', () => followers.every((f) => f.client.status === 'reconnecting'))
    await write(10)
    server = await serverOn(root, token, port)
    await write(15)

    // Half a frame sits at the end: it must never be emitted, however often the server looks.
    const before = (await diskEvents(path)).length
    const frame = await writer.encode(pace.take())
    await writer.appendBytes(frame.subarray(0, frame.length >> 1))
    await waitFor('followers at the committed head', () => followers.every((f) => f.lastSeq === before - 1))
    const tail = server.tails()[0]
    if (tail === undefined) throw new Error('no tail')
    const polls = tail.polls
    await waitFor('three more polls', () => tail.polls >= polls + 3)
    expect(followers.map((f) => f.lastSeq)).toStrictEqual([before - 1, before - 1])
    await writer.appendBytes(frame.subarray(frame.length >> 1))
    await write(log.batches.length)

    await expectFollowersHoldFile(followers, path)
    for (const f of followers) expect(f.snapshots).toContain('resume')
  },
  PACED_WRITER_BUDGET_MS,
)

test(
  'jsonl: packed rows, a torn line, truncation and replacement are all exact',
  async () => {
    const root = await tempRoot()
    const id = 'session-jsonl-live'
    const path = await sessionPath(root, id, false)
    const writer = new LogWriter(path, false)
    const log = generated(id, 5, 1500)
    await writer.create(log.header)
    const pace = writer.pacer(log.batches, 30)
    const write = pace.write
    await write(10)
    const token = 'jsonl-token-0123456789'
    const server = await serverOn(root, token)
    cleanup.push(() => server.close())
    // A window of 7 events cuts packed rows at nearly every batch edge.
    const followers = [
      new Follower(server.streamUrl, token, { sessionId: id }),
      new Follower(server.streamUrl, token, { path }, 7),
    ]
    cleanup.push(() => followers.forEach((f) => f.close()))
    await write(15)

    const before = (await diskEvents(path)).length
    const text = pace.take()
    const cut = Math.max(5, text.indexOf('\n') >> 1)
    await writer.appendBytes(new TextEncoder().encode(text.slice(0, cut)))
    await waitFor('followers at the committed head', () => followers.every((f) => f.lastSeq === before - 1))
    const tail = server.tails()[0]
    if (tail === undefined) throw new Error('no tail')
    const polls = tail.polls
    await waitFor('three more polls', () => tail.polls >= polls + 3)
    expect(followers.map((f) => f.lastSeq)).toStrictEqual([before - 1, before - 1])
    await writer.appendBytes(new TextEncoder().encode(text.slice(cut)))
    await write(20)
    await expectFollowersHoldFile(followers, path)

    // Truncate in place and start a different log: a reset, never a splice of old and new.
    const second = generated(id, 6, 400)
    await truncate(path, 0)
    await writer.create(second.header)
    for (const batch of second.batches.slice(0, 8)) await writer.appendBatch(batch)
    await waitFor('reset seen', () => followers.every((f) => f.resets >= 1))
    await expectFollowersHoldFile(followers, path)

    // Replace the file (new inode) the way the harness materializes one: write a .tmp, then rename over.
    const third = generated(id, 7, 400)
    await writeFile(`${path}.0123456789ab.tmp`, third.header + '\n' + third.batches.join(''))
    await rename(`${path}.0123456789ab.tmp`, path)
    await waitFor('second reset seen', () => followers.every((f) => f.resets >= 2))
    await expectFollowersHoldFile(followers, path)
  },
  PACED_WRITER_BUDGET_MS,
)

/** `lens serve` as a real process; resolves once it printed its URL. */
function spawnServe(
  root: string,
  port: number,
  token: string,
): Promise<{ child: ChildProcess; streamUrl: string; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', root, '--port', String(port)], {
    env: { ...process.env, DSH_LENS_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /stream (ws:\/\/127\.0\.0\.1:(\d+)\/v1\/stream)/.exec(out)
      if (m !== null) resolve({ child, streamUrl: m[1] as string, port: Number(m[2]) })
    })
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
  })
}

test('a `lens serve` process killed with SIGKILL and restarted: followers resume with no gap or duplicate', async () => {
  const root = await tempRoot()
  const id = 'session-sigkill'
  const path = await sessionPath(root, id, false)
  const writer = new LogWriter(path, false)
  const log = generated(id, 9, 1200)
  await writer.create(log.header)
  const pace = writer.pacer(log.batches, 25)
  const write = pace.write
  await write(10)
  const token = 'sigkill-token-0123456789'
  const first = await spawnServe(root, 0, token)
  cleanup.push(() => first.child.kill('SIGKILL'))
  const followers = [
    new Follower(first.streamUrl, token, { sessionId: id }),
    new Follower(first.streamUrl, token, { sessionId: id }, 16),
  ]
  cleanup.push(() => followers.forEach((f) => f.close()))
  await write(10)
  await waitFor('followers streaming', () => followers.every((f) => f.lastSeq > 0))
  first.child.kill('SIGKILL')
  await waitFor('followers notice', () => followers.every((f) => f.client.status === 'reconnecting'))
  await write(10)
  const second = await spawnServe(root, first.port, token)
  cleanup.push(() => second.child.kill('SIGKILL'))
  await write(log.batches.length)
  await expectFollowersHoldFile(followers, path)
  for (const f of followers) expect(f.snapshots).toContain('resume')
})
