/**
 * The worker's decoded-bytes budget (DECODED_BYTES_BUDGET, lowered here to a few KB): a load past it keeps the whole
 * lines before the budget, folds them exactly as the harness folds that prefix, flags the summary and marks a
 * `size-budget` warning at the last event kept; for a dropped file, a stream, zstd (one frame per batch, one frame
 * for everything, a small frame that expands to megabytes) and a live feed.
 */

import { describe, expect, it } from 'vitest'
import { generateSession, headerLine, batchText, toJsonl } from '../generate/index.ts'
import { eventsOfJsonl } from '../test-support/expanded-events.ts'
import { harnessVerdict } from '../test-support/harness-oracle.ts'
import { zstdFrame } from '../test-support/zstd-frames.ts'
import { concatBytes as concat } from '../test-support/fuzz-kit.ts'
import { DECODED_BYTES_BUDGET, OpenLog } from '../view/open-log.ts'
import { createInThreadClient } from './in-thread-client.ts'
import type { LogSummary } from '../protocol/log-summary.ts'
import { stateAt } from '../view/cursor-query.ts'
import { transcriptRows } from '../view/rows-query.ts'
import { DetailQueries } from '../view/detail-query.ts'

const details = new DetailQueries()

const BUDGET = 10 * 1024
const encoder = new TextEncoder()
// A valid generated log with compactions, ~60 KB: the budget falls well inside it.
const session = generateSession({ seed: 7, targetEvents: 400, compactionEveryTurns: 3 })
const jsonl = toJsonl(session)
const plain = encoder.encode(jsonl)

/** What the budget keeps: the lines that end within it (the oracle's own cut, on the text). */
function keptPrefix(text: string, budget: number): string {
  const bytes = encoder.encode(text)
  const nl = bytes.lastIndexOf(0x0a, budget - 1)
  return new TextDecoder().decode(bytes.subarray(0, nl + 1))
}

async function loadBlob(bytes: Uint8Array, budget = BUDGET): Promise<OpenLog> {
  const s = await OpenLog.create({ decodedBytesBudget: budget })
  s.begin('test.jsonl', bytes.length)
  expect(await s.loadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>]), () => true)).toBe(true)
  s.finish()
  return s
}

/** The summary and cursor equal the harness's fold of the kept prefix. */
function expectPrefixFold(s: OpenLog, text: string, budget = BUDGET): LogSummary {
  const prefix = keptPrefix(text, budget)
  const events = eventsOfJsonl(prefix)
  const verdict = harnessVerdict(events)
  expect(verdict.error).toBeNull()
  const summary = s.summary()
  expect(summary.length).toBe(events.length)
  expect(summary.length).toBeGreaterThan(10)
  expect(Array.from(stateAt(s, summary.length - 1).surfaceSeqs)).toStrictEqual(verdict.nodes)
  expect(
    summary.replacements.map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: r.shadowedSeqs })),
  ).toStrictEqual(verdict.replacements)
  expect(summary.sizeBudget).toMatchObject({
    budgetBytes: budget,
    keptBytes: encoder.encode(prefix).length,
    events: events.length,
  })
  const budgetDiagnostics = summary.diagnostics.filter((d) => d.code === 'size-budget')
  expect(budgetDiagnostics).toHaveLength(1)
  const last = events[events.length - 1] as { seq: number }
  expect(budgetDiagnostics[0]).toMatchObject({ severity: 'warning', seq: last.seq, index: summary.length - 1 })
  // The cut is no defect of the log: no torn tail, no open turn, nothing but the budget's own mark at the end.
  expect(summary.diagnostics.map((d) => d.code)).toStrictEqual(['size-budget'])
  expect(summary.diagnosticIndices).toContain(summary.length - 1)
  expect(summary.final).toBe(true)
  expect(summary.cancelled).toBe(false)
  return summary
}

describe('decoded-bytes budget', () => {
  it('defaults to 1 GiB and leaves a log under it untouched', async () => {
    expect(DECODED_BYTES_BUDGET).toBe(1024 ** 3)
    const s = await loadBlob(plain, plain.length)
    const summary = s.summary()
    expect(summary.sizeBudget).toBeNull()
    expect(summary.length).toBe(session.eventCount)
    expect(summary.diagnostics.some((d) => d.code === 'size-budget')).toBe(false)
  })

  it('a dropped plain file: keeps the lines before the budget, folded as the harness folds them', async () => {
    expect(plain.length).toBeGreaterThan(4 * BUDGET)
    const s = await loadBlob(plain)
    const summary = expectPrefixFold(s, jsonl)
    // Nothing past the cut was read from the file (the first slice is 256 KB, so at most that).
    expect(summary.sizeBudget?.inputBytes).toBe(summary.sizeBudget?.keptBytes)
    expect(s.lensLog.progress.plainBytes).toBeLessThanOrEqual(plain.length)
    // Every pane's query works on the prefix: rows, details.
    const rows = transcriptRows(s, 'messages', 0, 1000)
    expect(rows.rows.length).toBeGreaterThan(0)
    expect(details.detail(s, summary.length - 1, summary.length - 1)).not.toBeNull()
  })

  it('a budget falling exactly on a line end keeps that line', async () => {
    const cutAt = encoder.encode(keptPrefix(jsonl, BUDGET)).length
    const s = await loadBlob(plain, cutAt)
    expectPrefixFold(s, jsonl, cutAt)
  })

  it('a plain stream pushed in small pieces cuts at the same line', async () => {
    const s = await OpenLog.create({ decodedBytesBudget: BUDGET })
    s.begin('test.jsonl', null)
    for (let at = 0; at < plain.length; at += 333) s.push(plain.subarray(at, at + 333))
    s.finish()
    expectPrefixFold(s, jsonl)
  })

  it('zstd, one frame per batch: counts decoded bytes, not compressed ones', async () => {
    const frames = [headerLine(session.header), ...session.batches.map(batchText)].map((text) => zstdFrame(text))
    const bytes = concat(frames)
    const s = await loadBlob(bytes)
    expectPrefixFold(s, jsonl)
    expect(s.summary().encoding).toBe('zstd')
    // It stopped at the start of a frame (where the frame the budget fell in begins).
    const starts = frames.map((_, k) => concat(frames.slice(0, k)).length)
    expect(starts).toContain(s.summary().sizeBudget?.inputBytes)
    expect(s.summary().sizeBudget?.inputBytes).toBeGreaterThan(0)
  })

  it('zstd, the whole log in one frame: the frame is decoded only as far as the budget', async () => {
    const bytes = zstdFrame(jsonl)
    const s = await loadBlob(bytes)
    const summary = s.summary()
    // One frame holds the header and the body: the harness's container defect, reported as always.
    expect(summary.diagnostics.map((d) => d.code)).toStrictEqual(['zstd-header-frame', 'size-budget'])
    expect(summary.length).toBe(eventsOfJsonl(keptPrefix(jsonl, BUDGET)).length)
    expect(s.lensLog.progress.plainBytes).toBeLessThanOrEqual(BUDGET)
  })

  it('a 64 KB zstd frame that expands to 2 GiB (RLE blocks) is cut without decoding it', async () => {
    const header = zstdFrame(headerLine(session.header))
    // 16,384 blocks of 128 KiB of 'a': decoded whole, it would take 2 GiB (more than one Uint8Array may hold here).
    const bomb = rleFrame(0x61, 16384)
    expect(bomb.length).toBeLessThan(70_000)
    const bytes = new Uint8Array(header.length + bomb.length)
    bytes.set(header)
    bytes.set(bomb, header.length)
    const s = await loadBlob(bytes, 64 * 1024)
    const summary = s.summary()
    expect(summary.sizeBudget).toMatchObject({ budgetBytes: 64 * 1024, keptBytes: headerLine(session.header).length })
    expect(s.lensLog.progress.plainBytes).toBeLessThanOrEqual(64 * 1024)
    expect(summary.header).not.toBeNull()
    expect(summary.diagnostics.map((d) => d.code)).toStrictEqual(['size-budget'])
  })

  it('a stream and a live feed through the host (plain and zstd): final at the cut, later appends dropped', async () => {
    const zstd = concat([headerLine(session.header), ...session.batches.map(batchText)].map((text) => zstdFrame(text)))
    for (const [live, bytes] of [
      [false, plain],
      [true, plain],
      [true, zstd],
    ] as const) {
      const c = createInThreadClient({ decodedBytesBudget: BUDGET })
      const summaries: LogSummary[] = []
      const final = new Promise<void>((resolve) =>
        c.subscribe((e) => {
          if (e.type !== 'summary') return
          summaries.push(e.summary)
          if (e.summary.final) resolve()
        }),
      )
      const chunks = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, k) => bytes.slice(k * 4096, (k + 1) * 4096))
      // A live feed is never ended here: the budget alone closes it (a stream is ended, after the cut).
      const loadId = c.beginStream('test.jsonl', null, live)
      for (const chunk of chunks) c.pushChunk(loadId, chunk)
      if (!live) c.endStream(loadId)
      await final
      const last = summaries[summaries.length - 1] as LogSummary
      expect(last.final).toBe(true)
      expect(last.sizeBudget?.keptBytes).toBe(encoder.encode(keptPrefix(jsonl, BUDGET)).length)
      expect(last.length).toBe(eventsOfJsonl(keptPrefix(jsonl, BUDGET)).length)
      // Appends after the cut change nothing, and queries still answer on the prefix.
      c.pushChunk(loadId, encoder.encode('{"type":"turn/start","seq":99999,"time":1,"data":{"turn":99}}\n'))
      const state = await c.query('state-at', { index: last.length + 5 })
      expect(state.index).toBe(last.length - 1)
      expect(summaries.filter((x) => x.final)).toHaveLength(1)
      c.dispose()
    }
  })
})

/** A zstd frame of `blocks` RLE blocks of 128 KiB of `byte`, no content size, no checksum. */
function rleFrame(byte: number, blocks: number): Uint8Array {
  const out: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58] // FHD 0: no FCS, window descriptor: 8 MiB
  const size = 128 * 1024
  for (let k = 0; k < blocks; k++) {
    const header = ((k === blocks - 1 ? 1 : 0) | (1 << 1) | (size << 3)) >>> 0
    out.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, byte)
  }
  return new Uint8Array(out)
}
