/**
 * Test-only helpers for the live server tests: a sessions root on disk, a writer that appends batches as
 * zstd frames (system `zstd`, one frame per batch) or JSONL, followers built on the real TailClient, and
 * condition waits (never timed assertions).
 */

import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { LensLog, loadContentChecksum } from '../core/index.ts'
import type { ServerMessage, SourceRef } from '../live/protocol.ts'
import { TailClient, type LiveStatus, type StreamError, type WebSocketLike } from '../live/tail-client.ts'

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export async function tempRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lens-live-'))
}

/** `<root>/--proj--/<id>/session.jsonl[.zstd]`, directories created. */
export async function sessionPath(root: string, id: string, zstd: boolean): Promise<string> {
  const dir = join(root, '--home-u-proj--', id)
  await mkdir(dir, { recursive: true })
  return join(dir, zstd ? 'session.jsonl.zstd' : 'session.jsonl')
}

/** One independent checksummed frame, compressed by the system binary off the event loop. */
/** A sessions root holding one session (`session-a`, its header) and a viewer build of one bare index.html. */
export async function servedRoot(): Promise<{ root: string; dist: string }> {
  const root = await tempRoot()
  const dist = await tempRoot()
  await writeFile(await sessionPath(root, 'session-a', false), headerText('session-a') + '\n')
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><head><title>lens</title></head><body></body></html>')
  return { root, dist }
}

export function zstdFrameAsync(plaintext: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn('zstd', ['-q', '-c', '--no-progress'], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(new Uint8Array(Buffer.concat(out))) : reject(new Error(`zstd exited ${code}`)),
    )
    child.stdin.end(plaintext)
  })
}

export function headerText(id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'session',
    version: 0,
    id,
    createdAt: 1_786_000_000_000,
    cwd: '/home/u/proj',
    ...extra,
    delegationDepth: 0,
  })
}

/** Appends whole batches (one frame each for zstd), or any raw bytes (to leave a torn tail). */
export class LogWriter {
  constructor(
    readonly path: string,
    readonly zstd: boolean,
  ) {}

  async create(header: string): Promise<void> {
    await writeFile(this.path, await this.encode(header + '\n'))
  }

  async encode(plaintext: string): Promise<Uint8Array> {
    return this.zstd ? zstdFrameAsync(plaintext) : new TextEncoder().encode(plaintext)
  }

  async appendBatch(plaintext: string): Promise<void> {
    await appendFile(this.path, await this.encode(plaintext))
  }

  async appendBytes(bytes: Uint8Array): Promise<void> {
    await appendFile(this.path, bytes)
  }

  /**
   * A paced writer over `batches`: `write(n)` appends the next `n` batches, `pauseMs`
   * apart (one frame or line group per batch, as the harness writes them).
   */
  pacer(batches: readonly string[], pauseMs: number): { write(n: number): Promise<void>; take(): string } {
    let next = 0
    return {
      write: async (n) => {
        for (let k = 0; k < n && next < batches.length; k++) {
          await this.appendBatch(batches[next++] as string)
          await new Promise((resolve) => setTimeout(resolve, pauseMs))
        }
      },
      /** The next batch's text, consumed without writing it (for torn-write cases). */
      take: () => batches[next++] as string,
    }
  }
}

/** The expanded events of a log as canonical JSON strings, via the same core LensLog the viewer uses. */
export async function eventsOf(bytes: Uint8Array): Promise<string[]> {
  const log = new LensLog({ checksum: await loadContentChecksum(), upgradeLegacy: false })
  log.push(bytes)
  const out: string[] = []
  for (let i = 0; i < log.length; i++) out.push(JSON.stringify(log.event(i)))
  return out
}

export async function diskEvents(path: string): Promise<string[]> {
  return eventsOf(new Uint8Array(await readFile(path)))
}

export function digest(events: readonly string[]): string {
  const h = createHash('sha256')
  for (const e of events) h.update(e).update('\n')
  return h.digest('hex')
}

export const wsFactory =
  (headers: Record<string, string> = {}) =>
  (url: string, protocols: string[]): WebSocketLike =>
    new WebSocket(url, protocols, { headers }) as unknown as WebSocketLike

/** A viewer stand-in: follows one session with TailClient and keeps what it was sent, checking order itself. */
export class Follower {
  readonly client: TailClient
  headerLine: string | null = null
  lines: string[] = []
  lastSeq = -1
  resets = 0
  resetReasons: string[] = []
  snapshots: Array<'full' | 'resume'> = []
  statuses: LiveStatus[] = []
  violations: string[] = []
  errors: string[] = []
  /** Every `error` for the subscription, fields included (line/offset/diagnostic for defects). */
  streamErrors: StreamError[] = []
  /** Every `status` message for the subscription (writer, turn, and for dsh-web the host's running flag and link). */
  writerStatuses: Array<Extract<ServerMessage, { type: 'status' }>> = []
  /** Append batches received (a live turn followed chunk by chunk arrives in many). */
  appends = 0

  constructor(url: string, token: string, source: { sessionId: string } | { path: string } | SourceRef, window?: number) {
    this.client = new TailClient({
      url,
      token,
      webSocket: wsFactory(),
      backoff: { initialMs: 50, maxMs: 400 },
      ...(window === undefined ? {} : { window }),
      onStatus: (s) => this.statuses.push(s),
      onError: (e) => this.errors.push(`${e.code}: ${e.message}`),
    })
    this.client.subscribe('s1', 'kind' in source ? source : { kind: 'file', ...source }, {
      onSnapshot: (info) => {
        this.snapshots.push(info.mode)
        if (info.mode === 'full') {
          this.headerLine = info.headerLine
          this.lines = []
          this.lastSeq = -1
        }
        if (info.fromSeq !== this.lastSeq + 1) this.violations.push(`snapshot from ${info.fromSeq} after ${this.lastSeq}`)
      },
      onAppend: (batch) => {
        if (batch.fromSeq !== this.lastSeq + 1)
          this.violations.push(`append ${batch.fromSeq}..${batch.toSeq} after ${this.lastSeq}`)
        this.lines.push(...batch.lines)
        this.lastSeq = batch.toSeq
        this.appends++
      },
      onWriterStatus: (status) => this.writerStatuses.push(status),
      onError: (e) => this.streamErrors.push(e),
      onReset: (reason) => {
        this.resetReasons.push(reason)
        this.resets++
        this.lines = []
        this.lastSeq = -1
      },
    })
    this.client.connect()
  }

  /** What this follower holds, decoded by the core exactly as the browser would. */
  async events(): Promise<string[]> {
    return eventsOf(this.bytes())
  }

  /** What this follower holds as the JSONL text the viewer's worker is fed. */
  bytes(): Uint8Array {
    return new TextEncoder().encode([this.headerLine ?? '', ...this.lines].join('\n') + '\n')
  }

  close(): void {
    this.client.close()
  }
}
