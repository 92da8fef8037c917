/**
 * Integration: a defect in the middle of a followed log (a bad JSONL line, a zstd frame whose checksum fails, a
 * frame whose record is cut at its end, missing seqs) no longer stops the stream at the last good seq. The server
 * reports each one (error `corrupt`, fatal false, with line/offset/diagnostic) and goes on; what a real TailClient
 * follower holds decodes, with the core's LensLog, to exactly the events and defects of the file itself.
 */

import { expect, test } from 'vitest'
import { LensLog, loadContentChecksum } from '../../core/index.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { Follower, LogWriter, diskEvents, digest, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { cleanupAfterEach, generated } from '../../test-support/stream-test-kit.ts'
import { readFile, rename } from 'node:fs/promises'

// Generous: these run real processes and polls on a shared machine; nothing here asserts a duration.
const TEST_TIMEOUT_MS = 180_000
const cleanup = cleanupAfterEach()

async function serverOn(root: string, token: string, port?: number): Promise<LensServer> {
  // A small ring sends late followers and resumes through the on-disk index, across the defect.
  const server = await startLensServer({
    roots: [root],
    token,
    pollMs: 100,
    ringBytes: 8 * 1024,
    ...(port === undefined ? {} : { port }),
  })
  cleanup.push(() => server.close())
  return server
}

/** Events, last seq and the (code, seq) of every defect, as the core decodes these bytes. */
async function decoded(bytes: Uint8Array): Promise<{ events: string[]; lastSeq: unknown; defects: string[] }> {
  const log = new LensLog({ checksum: await loadContentChecksum(), upgradeLegacy: false })
  log.push(bytes)
  log.finish()
  const events: string[] = []
  for (let i = 0; i < log.length; i++) events.push(JSON.stringify(log.event(i)))
  // Line numbers can differ (a packed row cut at a batch edge becomes two lines); code and seq cannot.
  const defects = log.diagnostics
    .filter((d) => d.severity === 'error' && d.code !== 'scanner-rejects')
    .map((d) => `${d.code}@${d.seq}`)
  return { events, lastSeq: log.length === 0 ? -1 : log.seqOf(log.length - 1), defects }
}

async function expectLikeTheFile(followers: Follower[], path: string): Promise<void> {
  const file = await decoded(new Uint8Array(await readFile(path)))
  // Followers get JSONL text: the container's own defects reach them as stream errors, not as decoder diagnostics.
  const want = { ...file, defects: file.defects.filter((d) => !d.startsWith('zstd-') && !d.startsWith('scanner-')) }
  await waitFor(`followers at seq ${String(want.lastSeq)}`, () => followers.every((f) => f.lastSeq === want.lastSeq))
  for (const f of followers) {
    const got = await decoded(f.bytes())
    expect(got.events.length).toBe(want.events.length)
    expect(digest(got.events)).toBe(digest(want.events))
    expect(got.defects).toStrictEqual(want.defects)
    expect(f.violations).toStrictEqual([])
  }
}

test(
  'jsonl: a bad line mid-file is reported with its line and offset, forwarded as it is, and the events after it flow',
  async () => {
    const root = await tempRoot()
    const id = 'session-bad-line'
    const path = await sessionPath(root, id, false)
    const writer = new LogWriter(path, false)
    const log = generated(id, 21, 1200)
    await writer.create(log.header)
    const pace = writer.pacer(log.batches, 5)
    await pace.write(12)
    const server = await serverOn(root, 'defect-token-0123456789')
    const early = [
      new Follower(server.streamUrl, server.token, { sessionId: id }),
      new Follower(server.streamUrl, server.token, { sessionId: id }, 5),
    ]
    cleanup.push(() => early.forEach((f) => f.close()))
    const good = await diskEvents(path)
    await waitFor('followers at the head', () => early.every((f) => f.lastSeq === good.length - 1))

    // One record's line loses its closing brace: its seq(s) are lost, the rest of the batch is fine.
    const before = (await readFile(path)).length
    const lines = pace.take().split('\n')
    const victim = 0
    lines[victim] = (lines[victim] as string).slice(0, -1)
    const lineNo = (await readFile(path, 'utf8')).split('\n').length - 1 + victim + 1
    const victimOffset =
      before +
      new TextEncoder().encode(
        lines
          .slice(0, victim)
          .map((l) => l + '\n')
          .join(''),
      ).length
    await writer.appendBatch(lines.join('\n'))
    await pace.write(10)
    await expectLikeTheFile(early, path)
    for (const f of early) {
      const defect = f.streamErrors.find((e) => e.code === 'corrupt')
      expect(defect).toMatchObject({ fatal: false, diagnostic: 'line-invalid-json', line: lineNo, offset: victimOffset })
    }

    // A follower that arrives later reads across the defect from disk; a writer that then skips seqs is one more defect.
    const late = new Follower(server.streamUrl, server.token, { path }, 3)
    cleanup.push(() => late.close())
    pace.take() // a whole batch never written: its seqs are missing
    await pace.write(log.batches.length)
    await expectLikeTheFile([...early, late], path)
    for (const f of [...early, late]) {
      // The bad line took its seq with it, so the record after it is a gap too; then the batch never written.
      const kinds = f.streamErrors.filter((e) => e.code === 'corrupt').map((e) => e.diagnostic)
      expect(kinds).toStrictEqual(['line-invalid-json', 'seq-gap', 'seq-gap'])
      expect(f.resets).toBe(0)
    }
  },
  TEST_TIMEOUT_MS,
)

test(
  'zstd: a frame failing its checksum and a frame ending inside a record are stepped over; a restart resumes across them',
  async () => {
    const root = await tempRoot()
    const id = 'session-bad-frame'
    const path = await sessionPath(root, id, true)
    const writer = new LogWriter(path, true)
    const log = generated(id, 23, 1500)
    await writer.create(log.header)
    const pace = writer.pacer(log.batches, 5)
    await pace.write(10)
    const token = 'frame-token-0123456789'
    let server = await serverOn(root, token)
    const port = server.port
    const followers = [
      new Follower(server.streamUrl, token, { sessionId: id }),
      new Follower(server.streamUrl, token, { sessionId: id }, 9),
    ]
    cleanup.push(() => followers.forEach((f) => f.close()))
    await waitFor('followers streaming', () => followers.every((f) => f.lastSeq > 0))

    // The stored checksum no longer matches: the framing is intact, the frame's records are lost.
    const badAt = (await readFile(path)).length
    const frame = await writer.encode(pace.take())
    frame[frame.length - 2] = (frame[frame.length - 2] as number) ^ 0xff
    await writer.appendBytes(frame)
    await pace.write(8)
    await expectLikeTheFile(followers, path)
    for (const f of followers) {
      expect(f.streamErrors.find((e) => e.code === 'corrupt')).toMatchObject({
        fatal: false,
        diagnostic: 'zstd-frame-corrupt',
        offset: badAt,
      })
    }

    // The server goes away; meanwhile a frame ends half-way into a record (its start is lost, the rest is a bad line).
    await server.close()
    await waitFor('followers notice', () => followers.every((f) => f.client.status === 'reconnecting'))
    const torn = pace.take()
    const cut = torn.indexOf('\n') + 1 + ((torn.indexOf('\n', torn.indexOf('\n') + 1) - torn.indexOf('\n')) >> 1)
    await writer.appendBytes(await writer.encode(torn.slice(0, cut)))
    await writer.appendBytes(await writer.encode(torn.slice(cut)))
    await pace.write(6)
    server = await serverOn(root, token, port)
    await pace.write(log.batches.length)
    await expectLikeTheFile(followers, path)
    for (const f of followers) {
      expect(f.snapshots).toContain('resume')
      expect(f.resets).toBe(0)
      expect(f.streamErrors.map((e) => e.diagnostic)).toContain('zstd-torn-record')
    }
    expect((await diskEvents(path)).length).toBeGreaterThan(0)
  },
  TEST_TIMEOUT_MS,
)

test(
  'zstd: bytes that are no frame at all stop reading there, said with the offset and code; a replaced file streams again',
  async () => {
    const root = await tempRoot()
    const id = 'session-bad-magic'
    const path = await sessionPath(root, id, true)
    const writer = new LogWriter(path, true)
    const log = generated(id, 25, 600)
    await writer.create(log.header)
    const pace = writer.pacer(log.batches, 5)
    await pace.write(6)
    const server = await serverOn(root, 'magic-token-0123456789')
    const followers = [new Follower(server.streamUrl, server.token, { sessionId: id })]
    cleanup.push(() => followers.forEach((f) => f.close()))
    const good = await diskEvents(path)
    await waitFor('followers at the head', () => followers.every((f) => f.lastSeq === good.length - 1))
    const badAt = (await readFile(path)).length
    await writer.appendBytes(new TextEncoder().encode('not a zstd frame at all'))
    await pace.write(4)
    await waitFor('the halt told', () =>
      followers.every((f) => f.streamErrors.some((e) => e.diagnostic === 'zstd-invalid-magic')),
    )
    for (const f of followers) {
      expect(f.streamErrors.find((e) => e.diagnostic === 'zstd-invalid-magic')).toMatchObject({ fatal: false, offset: badAt })
      expect(f.lastSeq).toBe(good.length - 1)
    }
    // The harness would refuse this file too; a repaired (replaced) one is followed from scratch.
    const fresh = new LogWriter(`${path}.0123456789ab.tmp`, true)
    await fresh.create(log.header)
    for (const batch of log.batches.slice(0, 12)) await fresh.appendBatch(batch)
    await rename(fresh.path, path)
    await waitFor('reset seen', () => followers.every((f) => f.resets >= 1))
    await expectLikeTheFile(followers, path)
  },
  TEST_TIMEOUT_MS,
)
