/**
 * The worker's answers to the page's queries: one handler per query type, typed by the request union, so a query
 * added to the protocol without a handler (or a handler answering the wrong shape) fails to compile. Every answer
 * comes from the open log (view/); a failure becomes a reply with its message, never a dead worker.
 */

import { PROTOCOL_VERSION, type QueryRequest, type QueryResults } from '../protocol/messages.ts'
import { contextSeriesAnswer } from '../view/context-series-query.ts'
import { logPrefixFile } from '../view/log-prefix-file.ts'
import { SERIES_SLICE_MS, type OpenLog } from '../view/open-log.ts'
import type { SearchQueries } from '../view/search-query.ts'
import type { TimeQueries } from '../view/time-queries.ts'
import { stepListAnswer, stepRequestAnswer, stepRequestJsonText } from '../view/step-request-query.ts'
import { firstRejectingStep, summaryForgot } from '../view/answers-query.ts'
import { requestMessageDiff } from '../view/message-diff.ts'
import type { PostResponse } from './load-reports.ts'

type QueryType = QueryRequest['type']

/** What a handler answers from: the open log, the running search, the Time mode's kept answers. */
export interface QueryContext {
  readonly log: OpenLog
  readonly searches: SearchQueries
  readonly times: TimeQueries
}

/** One query's handler; buffers pushed on `transfer` move to the main thread instead of being copied. */
type QueryHandler<T extends QueryType> = (
  on: QueryContext,
  req: Extract<QueryRequest, { type: T }>,
  transfer: Transferable[],
) => QueryResults[T]

const QUERY_HANDLERS: { readonly [T in QueryType]: QueryHandler<T> } = {
  'state-at': ({ log }, req, transfer) => {
    const snapshot = log.stateAt(req.index)
    // Fresh arrays per answer: transfer them instead of copying (a drag asks every frame).
    transfer.push(snapshot.surfaceSeqs.buffer, snapshot.surfaceIndices.buffer)
    return snapshot
  },
  'transcript-rows': ({ log }, req) => log.transcriptRows(req.list, req.from, req.to),
  summaries: ({ log }, req) => log.summaries(req.indices),
  detail: ({ log }, req) => log.detail(req.index, req.cursor),
  'index-of-seq': ({ log }, req) => log.indexOfSeq(req.seq),
  search: ({ log, searches }, req) => searches.start(log.lensLog, req.searchId, req.spec),
  'search-more': ({ log, searches }, req) => searches.more(log.lensLog, req.searchId),
  'log-prefix': ({ log }, req) => logPrefixFile(log.lensLog, req.index),
  'detail-text': ({ log }, req) => log.detailText(req.index, req.field, req.offset, req.length),
  'detail-blob': ({ log }, req) => log.detailBlob(req.index, req.field),
  'step-request': ({ log }, req) => stepRequestAnswer(log.lensLog, req.target, req.have),
  'step-list': ({ log }) => stepListAnswer(log.lensLog),
  'step-request-json': ({ log }, req) => stepRequestJsonText(log.lensLog, req.turn, req.step),
  'request-message-diff': ({ log }, req) => requestMessageDiff(log.lensLog, req.turn, req.step),
  'first-rejecting-step': ({ log }, req) => firstRejectingStep(log.lensLog, req.code, req.seq),
  'summary-forgot': ({ log }, req) => summaryForgot(log.lensLog, req.seq),
  'context-series': ({ log }, req, transfer) => {
    // Time-boxed: a large log's series is built over several queries, other messages run in between.
    const series = log.contextSeries(SERIES_SLICE_MS)
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
