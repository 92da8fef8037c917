/**
 * Integration: faults between the writer, the file, the server and the client, with the real server and real
 * TailClient followers. After each, once the file is whole again, every follower holds exactly the file's events
 * (checked by seq and content hash): the connection cut at random points by a proxy, the log deleted and
 * recreated, a writer process killed with SIGKILL in the middle of a frame (then completed, or repaired by
 * truncating the torn tail as the harness does on restart).
 */

import { spawn } from 'node:child_process'
import { readFile, stat, truncate, unlink } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startCuttingProxy } from '../../test-support/cutting-proxy.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { Follower, LogWriter, diskEvents, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { cleanupAfterEach, generated, expectFollowersHoldFile } from '../../test-support/stream-test-kit.ts'

// Generous: these run real processes and polls on a shared machine; nothing here asserts a duration.
const TEST_TIMEOUT_MS = 180_000
const cleanup = cleanupAfterEach()

async function serverOn(root: string): Promise<LensServer> {
  const server = await startLensServer({ roots: [root], token: 'faults-token-0123456789', pollMs: 100, ringBytes: 16 * 1024 })
  cleanup.push(() => server.close())
  return server
}

function follow(url: string, id: string, windows: ReadonlyArray<number | undefined>): Follower[] {
  const followers = windows.map((w) => new Follower(url, 'faults-token-0123456789', { sessionId: id }, w))
  cleanup.push(() => followers.forEach((f) => f.close()))
  return followers
}

test(
  'a proxy cutting the connection at random points (mid-frame, both ways): followers resume each time, nothing lost or doubled',
  async () => {
    const root = await tempRoot()
    const id = 'session-cut'
    const path = await sessionPath(root, id, true)
    const writer = new LogWriter(path, true)
    const log = generated(id, 31, 3000)
    await writer.create(log.header)
    const pace = writer.pacer(log.batches, 5)
    await pace.write(10)
    const server = await serverOn(root)
    const proxy = await startCuttingProxy({ upstreamPort: server.port, seed: 7, minBytes: 2_000, maxBytes: 60_000 })
    cleanup.push(() => proxy.close())
    const followers = follow(`ws://127.0.0.1:${proxy.port}/v1/stream`, id, [undefined, 40, 7])
    // Bounded, so a run with too little traffic fails on the count below instead of hanging.
    for (let round = 0; proxy.cuts < 12 && round < 400; round++) {
      await pace.write(3)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(proxy.cuts).toBeGreaterThanOrEqual(12)
    proxy.stopCutting()
    await pace.write(log.batches.length)
    await expectFollowersHoldFile(followers, path, 60_000)
    for (const f of followers) {
      expect(f.snapshots).toContain('resume')
      expect(f.resets).toBe(0)
    }
    expect(proxy.accepted).toBeGreaterThan(12)
  },
  TEST_TIMEOUT_MS,
)

test(
  'the log deleted, then recreated (a new inode): followers see it missing, then reset to the new file',
  async () => {
    const root = await tempRoot()
    const id = 'session-deleted'
    const path = await sessionPath(root, id, false)
    const writer = new LogWriter(path, false)
    const first = generated(id, 33, 600)
    await writer.create(first.header)
    for (const batch of first.batches.slice(0, 20)) await writer.appendBatch(batch)
    const server = await serverOn(root)
    const followers = follow(server.streamUrl, id, [undefined, 9])
    await expectFollowersHoldFile(followers, path, 60_000)

    await unlink(path)
    await waitFor('the server sees the file missing', () => server.tails().some((t) => t.missing))
    // Recreated at the same path (a new inode): a new file, whatever it holds.
    const second = generated(id, 34, 600)
    await writer.create(second.header)
    for (const batch of second.batches.slice(0, 15)) await writer.appendBatch(batch)
    await waitFor('reset seen', () => followers.every((f) => f.resets >= 1))
    for (const f of followers) expect(f.resetReasons[0]).toBe('replaced')
    await expectFollowersHoldFile(followers, path, 60_000)
  },
  TEST_TIMEOUT_MS,
)

/** A writer process that appends `bytes` a few at a time, slowly, so it can be killed mid-frame. */
function slowWriter(path: string, bytes: Uint8Array): ReturnType<typeof spawn> {
  const script = `
    const fs = require('node:fs')
    const data = Buffer.from(process.argv[2], 'base64')
    const fd = fs.openSync(process.argv[1], 'a')
    let at = 0
    const step = () => {
      if (at >= data.length) return
      fs.writeSync(fd, data.subarray(at, at + 7))
      at += 7
      process.stdout.write('w')
      setTimeout(step, 3)
    }
    step()`
  return spawn(process.execPath, ['-e', script, path, Buffer.from(bytes).toString('base64')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
}

async function killMidFrame(path: string, frame: Uint8Array): Promise<number> {
  const before = (await stat(path)).size
  const child = slowWriter(path, frame)
  let writes = 0
  child.stdout?.on('data', (d: Buffer) => (writes += d.length))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  // Killed once part of the frame is on disk, well before all of it.
  await waitFor('a few writes', () => writes >= 3)
  child.kill('SIGKILL')
  await exited
  const written = (await stat(path)).size - before
  expect(written).toBeGreaterThan(0)
  expect(written).toBeLessThan(frame.length)
  return written
}

for (const zstd of [true, false]) {
  test(
    `${zstd ? 'zstd' : 'jsonl'}: a writer process killed with SIGKILL mid-${zstd ? 'frame' : 'line'}: held back, then completed or repaired by truncation, without a reset`,
    async () => {
      const root = await tempRoot()
      const id = `session-killed-${zstd ? 'zstd' : 'jsonl'}`
      const path = await sessionPath(root, id, zstd)
      const writer = new LogWriter(path, zstd)
      const log = generated(id, zstd ? 35 : 36, 1500)
      await writer.create(log.header)
      const pace = writer.pacer(log.batches, 5)
      await pace.write(10)
      const server = await serverOn(root)
      const followers = follow(server.streamUrl, id, [undefined, 11])
      await expectFollowersHoldFile(followers, path, 60_000)

      // 1. Killed mid-write; the rest of the frame is appended later (a writer that resumes its buffer).
      const held = (await diskEvents(path)).length
      const frame = await writer.encode(pace.take())
      const written = await killMidFrame(path, frame)
      const tail = server.tails()[0]
      if (tail === undefined) throw new Error('no tail')
      const polls = tail.polls
      await waitFor('three more polls', () => tail.polls >= polls + 3)
      expect(followers.map((f) => f.lastSeq)).toStrictEqual([held - 1, held - 1])
      await writer.appendBytes(frame.subarray(written))
      await pace.write(5)
      await expectFollowersHoldFile(followers, path, 60_000)

      // 2. Killed mid-write again; the restarted writer cuts the torn tail off (the harness's repair).
      const size = (await stat(path)).size
      const lost = pace.take()
      await killMidFrame(path, await writer.encode(lost))
      const polls2 = tail.polls
      await waitFor('the torn tail seen', () => tail.polls >= polls2 + 2)
      await truncate(path, size)
      const polls3 = tail.polls
      await waitFor('the repair seen', () => tail.polls >= polls3 + 2)
      // The restarted writer writes its unflushed batch again, whole, and goes on.
      await writer.appendBatch(lost)
      await pace.write(log.batches.length)
      await expectFollowersHoldFile(followers, path, 60_000)
      for (const f of followers) expect(f.resets).toBe(0)
      expect((await readFile(path)).length).toBeGreaterThan(size)
    },
    TEST_TIMEOUT_MS,
  )
}
