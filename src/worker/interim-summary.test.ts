/**
 * Show something at once: while a file or a `?log=` stream loads, the host publishes interim summaries (not final,
 * so the page stays `loading`) of the events folded so far, the first as soon as there are any; the final summary
 * still comes last and equals a one-shot fold.
 */

import { describe, expect, it } from 'vitest'
import { generatePreset, toJsonl } from '../generate/index.ts'
import { createLensHost } from './lens-host.ts'
import { FIRST_WINDOW_ROWS } from './load-reports.ts'
import { FIRST_SLICE_BYTES } from '../view/open-log.ts'
import { PROTOCOL_VERSION, type LensResponse } from '../protocol/messages.ts'
import type { LogSummary } from '../protocol/log-summary.ts'
import { foldInNode } from '../../e2e/support/expected.ts'

const BYTES = new TextEncoder().encode(toJsonl(generatePreset('10k', 1)))

function summariesOf(posted: LensResponse[]): LogSummary[] {
  return posted.flatMap((m) => (m.type === 'summary' ? [m.summary] : []))
}

async function expectInterimThenFinal(posted: LensResponse[]): Promise<void> {
  await expect.poll(() => summariesOf(posted).some((s) => s.final), { timeout: 60_000 }).toBe(true)
  const summaries = summariesOf(posted)
  const last = summaries[summaries.length - 1] as LogSummary
  const interim = summaries.slice(0, -1)
  // Exactly one final summary, and it is the last one.
  expect(summaries.filter((s) => s.final)).toStrictEqual([last])
  expect(interim.length).toBeGreaterThan(0)
  // The first interim summary holds a proper prefix: rows to show before the whole file is folded.
  const first = interim[0] as LogSummary
  expect(first.length).toBeGreaterThan(0)
  expect(first.length).toBeLessThan(last.length)
  // Interim summaries grow and each is the fold of a prefix: replacements a prefix of the final ones.
  for (let k = 1; k < interim.length; k++)
    expect((interim[k] as LogSummary).length).toBeGreaterThanOrEqual((interim[k - 1] as LogSummary).length)
  for (const s of interim) expect(last.replacements.slice(0, s.replacements.length)).toStrictEqual(s.replacements)
  const expected = await foldInNode(BYTES)
  expect(last.length).toBe(expected.length)
  expect(last.replacements.map((r) => r.seq)).toStrictEqual(expected.replacementsAfter(expected.length - 1).map((r) => r.seq))
}

describe('interim summaries while a log loads', () => {
  it('a dropped file: the first summary comes after the first (small) slice, the final one last', async () => {
    expect(BYTES.length).toBeGreaterThan(4 * FIRST_SLICE_BYTES)
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message))
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 1, file: new File([BYTES], '10k.jsonl') })
    await expectInterimThenFinal(posted)
  })

  it('the first summary is preceded by the progress of what it holds (not held back by the progress throttle)', async () => {
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message))
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 3, file: new File([BYTES], '10k.jsonl') })
    await expect.poll(() => summariesOf(posted).length, { timeout: 60_000 }).toBeGreaterThan(0)
    const at = posted.findIndex((m) => m.type === 'summary')
    const before = posted.slice(0, at).flatMap((m) => (m.type === 'progress' ? [m.progress] : []))
    const progress = before[before.length - 1]
    // The first slice was folded before the first summary: its progress says so, with the events the summary holds.
    expect(progress?.inputBytes).toBe(FIRST_SLICE_BYTES)
    expect(progress?.events).toBe((summariesOf(posted)[0] as LogSummary).length)
  })

  it('a non-live stream (?log=): each chunk may publish an interim summary, ready only after load-end', async () => {
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => posted.push(message))
    handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId: 2, name: '10k.jsonl', totalBytes: BYTES.length, live: false })
    const step = 128 * 1024
    for (let offset = 0; offset < BYTES.length; offset += step) {
      handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId: 2, bytes: BYTES.slice(offset, offset + step).buffer })
      // Let the host run between chunks, as a fetch does.
      await new Promise((resolve) => setTimeout(resolve, offset === 0 ? 5 : 40))
    }
    expect(summariesOf(posted).some((s) => s.final)).toBe(false)
    handle({ v: PROTOCOL_VERSION, type: 'load-end', loadId: 2 })
    await expectInterimThenFinal(posted)
  })

  it('a stream handed over in one burst (a fast fetch): the first rows are answered before the rest is folded', async () => {
    const posted: LensResponse[] = []
    // What the store does on the first summary: ask for the first rows (the answer's place among the posts tells).
    const handle = createLensHost((message) => {
      posted.push(message)
      if (message.type === 'summary' && summariesOf(posted).length === 1)
        handle({ v: PROTOCOL_VERSION, type: 'transcript-rows', id: 99, list: 'all', from: 0, to: 20 })
    })
    handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId: 3, name: '10k.jsonl', totalBytes: BYTES.length, live: false })
    const step = 64 * 1024
    for (let offset = 0; offset < BYTES.length; offset += step)
      handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId: 3, bytes: BYTES.slice(offset, offset + step).buffer })
    handle({ v: PROTOCOL_VERSION, type: 'load-end', loadId: 3 })
    await expect.poll(() => posted.some((m) => m.type === 'reply' && m.id === 99), { timeout: 60_000 }).toBe(true)
    const replyAt = posted.findIndex((m) => m.type === 'reply' && m.id === 99)
    const finalAt = posted.findIndex((m) => m.type === 'summary' && m.summary.final)
    // Answered while the burst was still being folded (the final summary not out yet), and it held rows.
    expect(finalAt === -1 || replyAt < finalAt).toBe(true)
    const reply = posted[replyAt] as Extract<LensResponse, { type: 'reply' }>
    expect(reply.ok && (reply.result as { rows: unknown[] }).rows.length).toBeGreaterThan(0)
    await expectInterimThenFinal(posted)
  })

  it('a cancel while chunks wait: the load closes with what was folded, the waiting chunks are dropped', async () => {
    const posted: LensResponse[] = []
    // Cancelled as soon as the first chunk is folded and published.
    const handle = createLensHost((message) => {
      posted.push(message)
      if (message.type === 'summary' && summariesOf(posted).length === 1)
        handle({ v: PROTOCOL_VERSION, type: 'cancel', loadId: 4 })
    })
    handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId: 4, name: '10k.jsonl', totalBytes: BYTES.length, live: false })
    const step = 64 * 1024
    for (let offset = 0; offset < BYTES.length; offset += step)
      handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId: 4, bytes: BYTES.slice(offset, offset + step).buffer })
    await expect.poll(() => summariesOf(posted).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    const finals = summariesOf(posted).filter((s) => s.final)
    expect(finals).toHaveLength(1)
    const final = finals[0] as LogSummary
    expect(final.cancelled).toBe(true)
    const expected = await foldInNode(BYTES)
    expect(final.length).toBeGreaterThan(0)
    expect(final.length).toBeLessThan(expected.length)
    // Nothing is folded or published after the cancel.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(summariesOf(posted).at(-1)).toBe(final)
  })
})

describe('the first window (what the panes show first) rides on a load’s first summary', () => {
  type SummaryMessage = Extract<LensResponse, { type: 'summary' }>
  const summaryMessages = (posted: LensResponse[]): SummaryMessage[] => posted.flatMap((m) => (m.type === 'summary' ? [m] : []))

  it('holds the rows query’s answer for that prefix, every row’s and surface node’s summary, and comes once per load', async () => {
    const posted: LensResponse[] = []
    // Ask the same host, right when the first summary goes out, for the rows the store would otherwise ask for.
    const answers = new Map<number, unknown>()
    let handle: (data: unknown) => void = () => undefined
    handle = createLensHost((message) => {
      posted.push(message)
      if (message.type === 'reply' && message.ok) answers.set(message.id, message.result)
      if (message.type === 'summary' && summaryMessages(posted).length === 1) {
        handle({ v: PROTOCOL_VERSION, type: 'transcript-rows', id: 3, list: 'all', from: 0, to: FIRST_WINDOW_ROWS })
      }
    })
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 1, file: new File([BYTES], '10k.jsonl') })
    await expect.poll(() => summariesOf(posted).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    const messages = summaryMessages(posted)
    const first = messages[0] as SummaryMessage
    expect(first.summary.final).toBe(false)
    expect(messages.slice(1).every((m) => m.firstWindow === undefined)).toBe(true)
    const window = first.firstWindow
    if (window === undefined) throw new Error('the first summary has no first window')
    // The queries were answered after more was folded: compare with a host that folded exactly that prefix.
    expect(window.snapshot.index).toBe(first.summary.length - 1)
    expect(window.rows.messages.length).toBeGreaterThan(0)
    expect(window.rows.messages.length).toBeLessThanOrEqual(FIRST_WINDOW_ROWS)
    expect(window.rows.all.length).toBe(Math.min(FIRST_WINDOW_ROWS, window.snapshot.allRowCount))
    const rowsAnswer = answers.get(3) as { rows: unknown[]; summaries: { index: number }[] }
    // Rows of a prefix are the first rows of the whole (a row is final once a later event exists)...
    expect(rowsAnswer.rows.slice(0, window.rows.all.length - 1)).toStrictEqual(window.rows.all.slice(0, -1))
    // ...and every row and every surface node of the window comes with its summary.
    const have = new Set(window.summaries.map((s) => s.index))
    for (const ref of [...window.rows.messages, ...window.rows.all]) expect(have.has(ref.index)).toBe(true)
    for (const index of Array.from(window.snapshot.surfaceIndices).slice(0, FIRST_WINDOW_ROWS)) expect(have.has(index)).toBe(true)

    // A second load gets its own window.
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 2, file: new File([BYTES.slice(0, 100_000)], 'small.jsonl') })
    await expect.poll(() => summaryMessages(posted).filter((m) => m.loadId === 2 && m.summary.final).length).toBe(1)
    const second = summaryMessages(posted).filter((m) => m.loadId === 2)
    expect(second[0]?.firstWindow?.snapshot.index).toBe((second[0] as SummaryMessage).summary.length - 1)
  })

  it('is the state a one-shot fold gives at that event (snapshot) for a log folded in one piece', async () => {
    const small = BYTES.slice(0, BYTES.lastIndexOf(10, 50_000) + 1)
    const posted: LensResponse[] = []
    const handle = createLensHost((message) => {
      posted.push(message)
    })
    handle({ v: PROTOCOL_VERSION, type: 'load-file', loadId: 1, file: new File([small], 'small.jsonl') })
    await expect.poll(() => summariesOf(posted).some((s) => s.final), { timeout: 60_000 }).toBe(true)
    const [only] = summaryMessages(posted)
    const window = only?.firstWindow
    if (only === undefined || window === undefined) throw new Error('no first window')
    handle({ v: PROTOCOL_VERSION, type: 'state-at', id: 7, index: only.summary.length - 1 })
    await expect.poll(() => posted.some((m) => m.type === 'reply' && m.id === 7)).toBe(true)
    const reply = posted.find((m) => m.type === 'reply' && m.id === 7) as Extract<LensResponse, { type: 'reply'; ok: true }>
    expect(window.snapshot).toStrictEqual(reply.result)
    const expected = await foldInNode(small)
    expect(Array.from(window.snapshot.surfaceSeqs)).toStrictEqual(
      Array.from(expected.nodesAfter(expected.length - 1), (n) => expected.fold.timeline.seqOf(n)),
    )
  })
})
