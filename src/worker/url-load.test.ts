/**
 * `?log=` fetched in the worker (`load-url`): the body folds through the stream queue, the response is checked
 * before any byte is folded, and every early end (cancel, a newer load, the decoded-bytes budget) stops the download.
 * `fetch` is stubbed with real `Response`s over controllable streams.
 */

import { afterEach, describe, expect, it, vi } from 'vitest'
import { generatePreset, toJsonl } from '../generate/index.ts'
import { foldInNode } from '../../e2e/support/expected.ts'
import { createLensHost, type LensHostOptions } from './lens-host.ts'
import { PROTOCOL_VERSION, type LensResponse } from '../protocol/messages.ts'
import type { LogSummary } from '../protocol/log-summary.ts'

const BYTES = new TextEncoder().encode(toJsonl(generatePreset('10k', 1)))
const URL_ = 'http://lens.test/logs/10k.jsonl'

interface Served {
  /** The signal the host passed to fetch. */
  signal: () => AbortSignal
  /** Whether the host cancelled the body stream. */
  bodyCancelled: () => boolean
}

/** Stub fetch: answer `init` with `chunks` (each enqueued when `gate` allows), or reject with `fail`. */
function serve(options: {
  chunks?: Uint8Array[]
  status?: number
  statusText?: string
  contentType?: string
  fail?: Error
  /** Resolve the response only when this promise does (a slow server). */
  respondAfter?: Promise<void>
  /** Error the body after this many chunks. */
  errorAfter?: number
}): Served {
  let signal: AbortSignal | undefined
  let cancelled = false
  vi.stubGlobal('fetch', async (_url: string, init: { signal: AbortSignal }) => {
    signal = init.signal
    if (options.fail !== undefined) throw options.fail
    if (options.respondAfter !== undefined) await options.respondAfter
    if (init.signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
    const chunks = [...(options.chunks ?? [])]
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // One chunk per macrotask, as a network does.
        await new Promise((resolve) => setTimeout(resolve, 0))
        if (options.errorAfter !== undefined && sent === options.errorAfter)
          return controller.error(new Error('connection reset'))
        const next = chunks.shift()
        if (next === undefined) return controller.close()
        sent++
        controller.enqueue(next)
      },
      cancel() {
        cancelled = true
      },
    })
    const total = (options.chunks ?? []).reduce((n, c) => n + c.length, 0)
    return new Response(body, {
      status: options.status ?? 200,
      statusText: options.statusText ?? 'OK',
      headers: { 'content-type': options.contentType ?? 'application/octet-stream', 'content-length': String(total) },
    })
  })
  return {
    signal: () => {
      if (signal === undefined) throw new Error('fetch was not called')
      return signal
    },
    bodyCancelled: () => cancelled,
  }
}

/** Stub fetch with a server that is never the bottleneck: every pull is answered at once (no macrotask). */
function serveFast(chunks: Uint8Array[]): { pulledBytes: () => number; total: number } {
  let pulled = 0
  const total = chunks.reduce((n, c) => n + c.length, 0)
  vi.stubGlobal('fetch', async () => {
    const queue = [...chunks]
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = queue.shift()
          if (next === undefined) return controller.close()
          pulled += next.length
          controller.enqueue(next)
        },
      },
      { highWaterMark: 0 },
    )
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(total) },
    })
  })
  return { pulledBytes: () => pulled, total }
}

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let offset = 0; offset < bytes.length; offset += size) out.push(bytes.slice(offset, offset + size))
  return out
}

function host(options: LensHostOptions = {}): { posted: LensResponse[]; handle: (m: unknown) => void } {
  const posted: LensResponse[] = []
  return { posted, handle: createLensHost((message) => posted.push(message), options) }
}

const summaries = (posted: LensResponse[], loadId: number): LogSummary[] =>
  posted.flatMap((m) => (m.type === 'summary' && m.loadId === loadId ? [m.summary] : []))
const failures = (posted: LensResponse[]) => posted.flatMap((m) => (m.type === 'load-failed' ? [m] : []))

const loadUrl = (loadId: number, label = '/logs/10k.jsonl') =>
  ({ v: PROTOCOL_VERSION, type: 'load-url', loadId, url: URL_, label, name: '10k.jsonl' }) as const

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('?log= fetched in the worker', () => {
  it('folds the body as it streams: interim summaries, then one final summary equal to a one-shot fold', async () => {
    serve({ chunks: chunked(BYTES, 64 * 1024) })
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => summaries(posted, 1).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    const all = summaries(posted, 1)
    const last = all[all.length - 1] as LogSummary
    expect(all.filter((s) => s.final)).toStrictEqual([last])
    expect((all[0] as LogSummary).length).toBeLessThan(last.length)
    const expected = await foldInNode(BYTES)
    expect(last.length).toBe(expected.length)
    expect(last.name).toBe('10k.jsonl')
    // The progress knows the total from Content-Length.
    const progress = posted.flatMap((m) => (m.type === 'progress' ? [m.progress] : []))
    expect(progress[0]?.totalBytes).toBe(BYTES.length)
    expect(failures(posted)).toStrictEqual([])
  })

  it('reads a fast download only a bounded amount ahead of the fold, so a query is answered mid-download', async () => {
    const readAheadBytes = 128 * 1024
    const chunkBytes = 16 * 1024
    const server = serveFast(chunked(BYTES, chunkBytes))
    const posted: LensResponse[] = []
    let askedAt = -1
    const handle = createLensHost(
      (message) => {
        posted.push(message)
        // The store's first question, asked the moment the first summary arrives.
        if (message.type === 'summary' && askedAt === -1) {
          askedAt = server.pulledBytes()
          handle({ v: PROTOCOL_VERSION, type: 'state-at', id: 5, index: message.summary.length - 1 })
        }
        if (message.type === 'reply' && message.id === 5) answeredAt = server.pulledBytes()
        // How far the reads ran ahead of the fold, checked after the load (a throw in here would land in the host).
        if (message.type === 'progress') maxAhead = Math.max(maxAhead, server.pulledBytes() - message.progress.inputBytes)
      },
      { readAheadBytes },
    )
    let answeredAt = -1
    let maxAhead = 0
    handle(loadUrl(1))
    await expect.poll(() => summaries(posted, 1).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    expect(server.pulledBytes()).toBe(server.total)
    // Never more than the read-ahead (and the chunk read when it was reached) beyond what was folded.
    expect(maxAhead).toBeLessThanOrEqual(readAheadBytes + chunkBytes)
    // Answered while most of the body was still unread (a reader that drains the stream first answers at the end).
    expect(answeredAt).toBeGreaterThan(0)
    expect(answeredAt).toBeLessThan(server.total / 2)
    const expected = await foldInNode(BYTES)
    expect(summaries(posted, 1).at(-1)?.length).toBe(expected.length)
  })

  it.each([
    [
      { status: 404, statusText: 'Not Found' },
      'Could not read /logs/10k.jsonl: The server answered 404 Not Found for /logs/10k.jsonl.',
    ],
    [
      { contentType: 'text/html; charset=utf-8', chunks: [new TextEncoder().encode('<!doctype html>')] },
      'Could not read /logs/10k.jsonl: the server sent an HTML page, not a session log (is the path right?)',
    ],
    [{ fail: new TypeError('Failed to fetch') }, 'Could not read /logs/10k.jsonl: Failed to fetch'],
  ])('a response that is not a log (%o) fails with the message alone, no summary', async (options, message) => {
    serve(options)
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => failures(posted).length).toBe(1)
    expect(failures(posted)[0]).toMatchObject({ loadId: 1, message, summary: null })
    expect(summaries(posted, 1)).toStrictEqual([])
  })

  it('a body that breaks mid-way fails with what was folded and the reason', async () => {
    serve({ chunks: chunked(BYTES, 64 * 1024), errorAfter: 3 })
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => failures(posted).length, { timeout: 60_000 }).toBe(1)
    const failure = failures(posted)[0]
    expect(failure?.message).toBe('Could not read /logs/10k.jsonl: connection reset')
    expect(failure?.summary?.length).toBeGreaterThan(0)
    expect(failure?.summary?.length).toBeLessThan((await foldInNode(BYTES)).length)
  })

  it('cancel before the response: the fetch is aborted and the load fails saying nothing arrived', async () => {
    let respond = (): void => undefined
    const served = serve({ chunks: chunked(BYTES, 64 * 1024), respondAfter: new Promise<void>((r) => (respond = r)) })
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => served.signal()).toBeDefined()
    handle({ v: PROTOCOL_VERSION, type: 'cancel', loadId: 1 })
    await expect.poll(() => failures(posted).length).toBe(1)
    expect(failures(posted)[0]).toMatchObject({ message: 'Loading was cancelled before any data arrived.', summary: null })
    expect(served.signal().aborted).toBe(true)
    respond()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(summaries(posted, 1)).toStrictEqual([])
    expect(failures(posted)).toHaveLength(1)
  })

  it('cancel mid-body: the download stops and the final summary is the cancelled prefix', async () => {
    const served = serve({ chunks: chunked(BYTES, 16 * 1024) })
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => summaries(posted, 1).length, { timeout: 60_000 }).toBeGreaterThan(0)
    handle({ v: PROTOCOL_VERSION, type: 'cancel', loadId: 1 })
    await expect.poll(() => summaries(posted, 1).some((s) => s.final)).toBe(true)
    const last = summaries(posted, 1).at(-1) as LogSummary
    expect(last.cancelled).toBe(true)
    expect(last.length).toBeLessThan((await foldInNode(BYTES)).length)
    expect(served.signal().aborted).toBe(true)
    expect(failures(posted)).toStrictEqual([])
  })

  it('a newer load stops the older download, and nothing more is posted for the older one', async () => {
    const first = serve({ chunks: chunked(BYTES, 16 * 1024) })
    const { posted, handle } = host()
    handle(loadUrl(1))
    await expect.poll(() => summaries(posted, 1).length, { timeout: 60_000 }).toBeGreaterThan(0)
    const small = new TextEncoder().encode(toJsonl(generatePreset('demo', 1)))
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 2, file: new File([small], 'demo.jsonl') })
    await expect.poll(() => summaries(posted, 2).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    expect(first.signal().aborted).toBe(true)
    const countAfter = posted.filter((m) => 'loadId' in m && m.loadId === 1).length
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(posted.filter((m) => 'loadId' in m && m.loadId === 1).length).toBe(countAfter)
    expect(summaries(posted, 1).some((s) => s.final)).toBe(false)
  })

  it('the decoded-bytes budget ends the load and stops the download', async () => {
    const served = serve({ chunks: chunked(BYTES, 16 * 1024) })
    const { posted, handle } = host({ decodedBytesBudget: 100_000 })
    handle(loadUrl(1))
    await expect.poll(() => summaries(posted, 1).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    const last = summaries(posted, 1).at(-1) as LogSummary
    expect(last.sizeBudget).not.toBeNull()
    expect(served.signal().aborted).toBe(true)
  })
})
