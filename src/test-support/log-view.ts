/**
 * What the viewer makes of a log, in comparable form: the decoded events (as JSON), the strict fold's surface and
 * replacements, and the transcript's rows. Two logs with equal views look the same in every pane. Used to check that
 * the events a live dsh web session delivers (raw, unpacked `assistant/chunk`s, one append at a time) read exactly as
 * the packed file the harness wrote.
 */

import { LensLog, loadContentChecksum } from '../core/index.ts'
import { harnessVerdict } from './harness-oracle.ts'

export interface LogView {
  readonly events: string[]
  readonly nodes: number[]
  readonly replacements: Array<{ seq: number; start: number; end: number; shadowedSeqs: number[] }>
  readonly firstError: { index: number; message: string } | null
  /** [event index, row kind, span] of every transcript row. */
  readonly rows: Array<[number, number, number]>
  readonly messageRows: Array<[number, number, number]>
}

const checksum = await loadContentChecksum()

/** Feed `chunks` one push each (a live feed) or all at once, then finish. */
export function viewOf(chunks: readonly Uint8Array[]): LogView {
  const log = new LensLog({ checksum, upgradeLegacy: false })
  for (const chunk of chunks) log.push(chunk)
  log.finish()
  const last = log.strictLength - 1
  const rows = (list: typeof log.allRows): Array<[number, number, number]> =>
    Array.from({ length: list.length }, (_, i) => [list.index.get(i), list.kind.get(i), list.span.get(i)])
  const first = log.fold.firstViolation
  return {
    events: Array.from({ length: log.length }, (_, i) => JSON.stringify(log.event(i))),
    nodes: log.surfaceSeqsAfter(last),
    replacements: log
      .replacementsAfter(last)
      .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
    firstError: first === undefined ? null : { index: first.index, message: first.message },
    rows: rows(log.allRows),
    messageRows: rows(log.messageRows),
  }
}

/** The harness's own fold of the same events (`@deepseek-ai/dsh-session`, the test oracle). */
export function harnessFoldOf(view: LogView): ReturnType<typeof harnessVerdict> {
  return harnessVerdict(view.events.map((e) => JSON.parse(e) as unknown))
}
