/**
 * The worker's answers to the page's queries: one handler per query type, typed by the request union, so a query
 * added to the protocol without a handler (or a handler answering the wrong shape) fails to compile. Every answer
 * comes from the open log (view/); a failure becomes a reply with its message, never a dead worker.
 */

import { PROTOCOL_VERSION, type QueryRequest, type QueryResults } from '../protocol/messages.ts'
import { contextSeriesAnswer, SERIES_SLICE_MS, type ContextSeriesQueries } from '../view/context-series-query.ts'
import { indexOfSeq, stateAt } from '../view/cursor-query.ts'
import type { DetailQueries } from '../view/detail-query.ts'
import { logPrefixFile } from '../view/log-prefix-file.ts'
import type { OpenLog } from '../view/open-log.ts'
import { summaries, transcriptRows } from '../view/rows-query.ts'
import type { SearchQueries } from '../view/search-query.ts'
import type { TimeQueries } from '../view/time-queries.ts'
import { stepListAnswer, stepRequestAnswer, stepRequestJsonText } from '../view/step-request-query.ts'
import { firstRejectingStep, summaryForgot } from '../view/answers-query.ts'
import { requestMessageDiff } from '../view/message-diff.ts'
import type { PostResponse } from './load-reports.ts'

type QueryType = QueryRequest['type']

/** What a handler answers from: the open log, and the answers some queries keep between questions. */
export interface QueryContext {
  readonly log: OpenLog
  /** The running searches. */
  readonly searches: SearchQueries
  /** The Time mode's and the replay's kept answers. */
  readonly times: TimeQueries
  /** The inspector's last long texts. */
  readonly details: DetailQueries
  /** The context chart's series, extended as the log grows. */
  readonly series: ContextSeriesQueries
}

/** One query's handler; buffers pushed on `transfer` move to the main thread instead of being copied. */
type QueryHandler<T extends QueryType> = (
  on: QueryContext,
  req: Extract<QueryRequest, { type: T }>,
  transfer: Transferable[],
) => QueryResults[T]

const QUERY_HANDLERS: { readonly [T in QueryType]: QueryHandler<T> } = {
  'state-at': ({ log }, req, transfer) => {
    const snapshot = stateAt(log, req.index)
    // Fresh arrays per answer: transfer them instead of copying (a drag asks every frame).
    transfer.push(snapshot.surfaceSeqs.buffer, snapshot.surfaceIndices.buffer)
    return snapshot
  },
  'transcript-rows': ({ log }, req) => transcriptRows(log, req.list, req.from, req.to),
  summaries: ({ log }, req) => summaries(log, req.indices),
  detail: ({ log, details }, req) => details.detail(log, req.index, req.cursor),
  'index-of-seq': ({ log }, req) => indexOfSeq(log, req.seq),
  search: ({ log, searches }, req) => searches.start(log.lensLog, req.searchId, req.spec),
  'search-more': ({ log, searches }, req) => searches.more(log.lensLog, req.searchId),
  'log-prefix': ({ log }, req) => logPrefixFile(log.lensLog, req.index),
  'detail-text': ({ log, details }, req) => details.detailText(log, req.index, req.field, req.offset, req.length),
  'detail-blob': ({ log, details }, req) => details.detailBlob(log, req.index, req.field),
  'step-request': ({ log }, req) => stepRequestAnswer(log.lensLog, req.target, req.have),
  'step-list': ({ log }) => stepListAnswer(log.lensLog),
  'step-request-json': ({ log }, req) => stepRequestJsonText(log.lensLog, req.turn, req.step),
  'request-message-diff': ({ log }, req) => requestMessageDiff(log.lensLog, req.turn, req.step),
  'first-rejecting-step': ({ log }, req) => firstRejectingStep(log.lensLog, req.code, req.seq),
  'summary-forgot': ({ log }, req) => summaryForgot(log.lensLog, req.seq),
  'context-series': ({ log, series: kept }, req, transfer) => {
    // Time-boxed: a large log's series is built over several queries, other messages run in between.
    const series = kept.series(log.lensLog, SERIES_SLICE_MS)
    const { answer, transfer: buffers } = contextSeriesAnswer(series, req, series.caughtUp(log.lensLog))
    transfer.push(...buffers)
    return answer
  },
  'time-lanes': ({ log, times }) => times.timeLanes(log.lensLog),
  'time-step': ({ log, times }, req) => times.timeStep(log.lensLog, req.position),
  'event-times': ({ log, times }, req, transfer) => times.eventTimes(log.lensLog, req.from, req.count, transfer),
  'stream-so-far': ({ log, times }, req) => times.streamSoFar(log.lensLog, req.index),
}

/** Answer one query with a `reply` (the result, or the error's message). */
export function answerQuery(on: QueryContext, req: QueryRequest, post: PostResponse): void {
  try {
    const transfer: Transferable[] = []
    // The table is keyed by the request's own type, so this handler takes exactly this request.
    const handler = QUERY_HANDLERS[req.type] as QueryHandler<QueryType>
    const result = handler(on, req as never, transfer)
    post({ v: PROTOCOL_VERSION, type: 'reply', id: req.id, ok: true, result }, transfer)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    post({ v: PROTOCOL_VERSION, type: 'reply', id: req.id, ok: false, message }, [])
  }
}
