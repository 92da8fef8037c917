/**
 * The typed protocol between the main thread and the lens worker: versioned request and response unions,
 * and the one place where an inbound message is checked (`parseRequest` / `parseResponse`). The shapes the messages
 * carry live beside this file, one topic each, derived from the core's types where the core has one.
 *
 * Trust: the log's content is untrusted, but it never travels as markup; every string here is rendered as text.
 * Messages themselves come from our own code on the other side of `postMessage`, so the parsers check the shape
 * only as far as dispatch needs (type, version, ids) and reject anything else loudly.
 */

import type { ContextSeriesAnswer, ContextSeriesArgs } from './context-series.ts'
import type { CompactionCostAnswer, CostAnswer, RateCardInfo, StepCostAnswer } from './cost.ts'
import type { EventTimesAnswer, StreamPreview, TimeLanesAnswer, TimeStepInfo } from './time-lanes.ts'
import type {
  DetailTextChunk,
  DetailTextField,
  EventDetail,
  EventSummary,
  LogPrefixFile,
  TranscriptList,
  TranscriptRowRef,
} from './event-views.ts'
import type { CursorSnapshot, FirstWindow, LoadProgress, LogSummary } from './log-summary.ts'
import type { SearchBatch, SearchSpec } from './search.ts'
import type { SecretsAnswer, SecretsAtAnswer } from './secrets.ts'
import type { ShareBuildArgs, ShareBundleFile, ShareReview, ShareReviewArgs } from './share.ts'
import type { CompareOverview, ComparePair, ComparePairRows, CompareTotals } from './compare.ts'
import type { CompactionForgot, Currency, RejectionCode } from '../core/index.ts'
import type {
  MessageDiffAnswer,
  StepListAnswer,
  StepRef,
  StepRequestAnswer,
  StepRequestJsonText,
  StepTarget,
} from './step-request.ts'

/** Bumped whenever a message shape changes; both sides refuse a mismatch. */
export const PROTOCOL_VERSION = 3

/**
 * Which of the worker's two open logs a load fills: `main` (the default) is the page's log, every pane's; `other` is
 * the second run the Compare view holds beside it (run B; the main log is run A).
 */
export type LogSlotName = 'main' | 'other'

type Envelope = { readonly v: typeof PROTOCOL_VERSION }
type Query = Envelope & { readonly id: number }

/** Main thread -> worker. Load messages carry a `loadId` so stale chunks of a replaced load are dropped. */
export type LensRequest =
  | (Envelope & { readonly type: 'load-file'; readonly loadId: number; readonly file: File; readonly slot?: LogSlotName })
  | (Envelope & {
      readonly type: 'load-begin'
      readonly loadId: number
      readonly name: string
      readonly totalBytes: number | null
      readonly live: boolean
      readonly slot?: LogSlotName
    })
  | (Envelope & {
      /** Fetch `url` (absolute, same origin) in the worker and fold its body as it streams (`?log=`, the demo).
       * `label` is the URL as the user gave it, for messages; `name` the file name shown. */
      readonly type: 'load-url'
      readonly loadId: number
      readonly url: string
      readonly label: string
      readonly name: string
    })
  | (Envelope & { readonly type: 'load-chunk'; readonly loadId: number; readonly bytes: ArrayBuffer })
  | (Envelope & { readonly type: 'load-end'; readonly loadId: number })
  | (Envelope & { readonly type: 'cancel'; readonly loadId: number })
  | (Query & { readonly type: 'state-at'; readonly index: number })
  | (Query & { readonly type: 'transcript-rows'; readonly list: TranscriptList; readonly from: number; readonly to: number })
  | (Query & { readonly type: 'summaries'; readonly indices: readonly number[] })
  | (Query & { readonly type: 'detail'; readonly index: number; readonly cursor: number })
  | (Query & { readonly type: 'index-of-seq'; readonly seq: number })
  | (Query & { readonly type: 'search'; readonly searchId: number; readonly spec: SearchSpec })
  | (Query & { readonly type: 'search-more'; readonly searchId: number })
  | (Query & { readonly type: 'log-prefix'; readonly index: number })
  | (Query & {
      readonly type: 'detail-text'
      readonly index: number
      readonly field: DetailTextField
      readonly offset: number
      readonly length: number
    })
  | (Query & { readonly type: 'detail-blob'; readonly index: number; readonly field: DetailTextField })
  | (Query & { readonly type: 'step-request'; readonly target: StepTarget; readonly have: string | null })
  | (Query & { readonly type: 'step-list' })
  | (Query & { readonly type: 'step-request-json'; readonly turn: number; readonly step: number })
  | (Query & { readonly type: 'request-message-diff'; readonly turn: number; readonly step: number })
  | (Query & { readonly type: 'first-rejecting-step'; readonly code: RejectionCode; readonly seq: number })
  | (Query & { readonly type: 'summary-forgot'; readonly seq: number })
  | (Query & { readonly type: 'context-series' } & ContextSeriesArgs)
  | (Query & { readonly type: 'time-lanes' })
  | (Query & { readonly type: 'time-step'; readonly position: number })
  | (Query & { readonly type: 'event-times'; readonly from: number; readonly count: number })
  | (Query & { readonly type: 'stream-so-far'; readonly index: number })
  | (Query & { readonly type: 'secrets' })
  | (Query & { readonly type: 'secrets-at'; readonly index: number })
  | (Query & { readonly type: 'share-review' } & ShareReviewArgs)
  | (Query & { readonly type: 'share-build' } & ShareBuildArgs)
  | (Query & { readonly type: 'share-cancel'; readonly job: number })
  | (Query & { readonly type: 'compare-overview' })
  | (Query & { readonly type: 'compare-pairs'; readonly from: number; readonly to: number })
  | (Query & { readonly type: 'compare-pair'; readonly index: number })
  | (Query & { readonly type: 'compare-totals' })
  | (Query & { readonly type: 'compare-close' })
  | (Query & { readonly type: 'cost'; readonly currency: Currency })
  | (Query & { readonly type: 'step-cost'; readonly turn: number; readonly step: number; readonly currency: Currency })
  | (Query & { readonly type: 'compaction-cost'; readonly seq: number; readonly currency: Currency })
  /**
   * Price with this card from now on: a rates card's JSON (checked in the worker, refused with the reason), or null for
   * the card built into the page. For the companion server's `--rates` card; the page does not send one yet.
   */
  | (Query & { readonly type: 'rate-card'; readonly card: string | null })

export type QueryRequest = Extract<LensRequest, { id: number }>

export interface QueryResults {
  'state-at': CursorSnapshot
  'transcript-rows': { readonly rows: readonly TranscriptRowRef[]; readonly summaries: readonly EventSummary[] }
  summaries: readonly EventSummary[]
  detail: EventDetail | null
  'index-of-seq': number
  search: SearchBatch
  'search-more': SearchBatch
  'log-prefix': LogPrefixFile
  'detail-text': DetailTextChunk | null
  /** The whole text as a UTF-8 Blob (copy and save without the main thread ever holding the string). */
  'detail-blob': Blob | null
  'step-request': StepRequestAnswer
  'step-list': StepListAnswer
  'step-request-json': StepRequestJsonText
  /** The text diff of the step's first changed message, or null (no previous step, or no message changed in place). */
  'request-message-diff': MessageDiffAnswer | null
  /** The first step, at or after `seq`, whose request breaks rule `code`; null when none does. */
  'first-rejecting-step': StepRef | null
  /** What the compaction summary at `seq` does not mention; null when `seq` is no summary. */
  'summary-forgot': CompactionForgot | null
  'context-series': ContextSeriesAnswer
  'time-lanes': TimeLanesAnswer
  'time-step': TimeStepInfo | null
  'event-times': EventTimesAnswer
  'stream-so-far': StreamPreview | null
  /** The open log's secrets (scanned when asked, kept for the log at this length). */
  secrets: SecretsAnswer
  'secrets-at': SecretsAtAnswer
  /** What a bundle of these logs would hold: each log's secrets and home paths. */
  'share-review': ShareReview
  /** The bundle of the reviewed job, as one HTML file. */
  'share-build': ShareBundleFile
  'share-cancel': null
  /** The Compare view (main log = run A, other log = run B): its first screen. */
  'compare-overview': CompareOverview
  'compare-pairs': ComparePairRows
  /** Null when there is no pair `index`. */
  'compare-pair': ComparePair | null
  'compare-totals': CompareTotals
  /** The view closed: the comparison and the other log are let go. */
  'compare-close': null
  /** The session's cost over the log, in one currency (computed when asked, kept until the log grows). */
  cost: CostAnswer
  'step-cost': StepCostAnswer
  'compaction-cost': CompactionCostAnswer
  'rate-card': RateCardInfo
}

/** Worker -> main thread. */
export type LensResponse =
  | (Envelope & { readonly type: 'progress'; readonly loadId: number; readonly progress: LoadProgress })
  | (Envelope & {
      readonly type: 'summary'
      readonly loadId: number
      readonly summary: LogSummary
      /** On the wire only (summary-delta.ts): `summary.replacements` holds the replacements from this index on, those
       * before it are the previous summary's of the same load. The client restores the whole list before its listeners. */
      readonly replacementsFrom?: number
      /** On a load's first summary only. */
      readonly firstWindow?: FirstWindow
    })
  | (Envelope & {
      readonly type: 'load-failed'
      readonly loadId: number
      readonly message: string
      readonly summary: LogSummary | null
    })
  | (Envelope & { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly result: unknown })
  | (Envelope & { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly message: string })

/**
 * Every request and response type, as a record the compiler checks against the unions: a type added to a union
 * without being listed here (or listed without being in the union) fails to compile. (Plain objects, not Sets:
 * the page's bundle drops the requests' list, which only the worker reads.)
 */
const REQUEST_TYPES = {
  'load-file': true,
  'load-begin': true,
  'load-url': true,
  'load-chunk': true,
  'load-end': true,
  cancel: true,
  'state-at': true,
  'transcript-rows': true,
  summaries: true,
  detail: true,
  'index-of-seq': true,
  'log-prefix': true,
  'detail-text': true,
  'detail-blob': true,
  'step-request': true,
  'step-list': true,
  'step-request-json': true,
  'request-message-diff': true,
  'first-rejecting-step': true,
  'summary-forgot': true,
  'context-series': true,
  'time-lanes': true,
  'time-step': true,
  'event-times': true,
  'stream-so-far': true,
  secrets: true,
  'secrets-at': true,
  'share-review': true,
  'share-build': true,
  'share-cancel': true,
  cost: true,
  'step-cost': true,
  'compaction-cost': true,
  'rate-card': true,
  search: true,
  'search-more': true,
  'compare-overview': true,
  'compare-pairs': true,
  'compare-pair': true,
  'compare-totals': true,
  'compare-close': true,
} satisfies Record<LensRequest['type'], true>
const RESPONSE_TYPES = { progress: true, summary: true, 'load-failed': true, reply: true } satisfies Record<
  LensResponse['type'],
  true
>

function envelopeType(data: unknown, known: Readonly<Record<string, true>>, side: string): string {
  if (typeof data !== 'object' || data === null) throw new Error(`${side}: message is not an object`)
  const { v, type } = data as { v?: unknown; type?: unknown }
  if (v !== PROTOCOL_VERSION) throw new Error(`${side}: protocol version ${String(v)}, expected ${PROTOCOL_VERSION}`)
  if (typeof type !== 'string' || !Object.hasOwn(known, type)) throw new Error(`${side}: unknown message type ${String(type)}`)
  return type
}

/** Check an inbound worker message once, at the boundary. Throws on anything that is not a request. */
export function parseRequest(data: unknown): LensRequest {
  envelopeType(data, REQUEST_TYPES, 'lens worker')
  const id = (data as { id?: unknown }).id
  const type = (data as { type: string }).type
  if (!type.startsWith('load') && type !== 'cancel' && typeof id !== 'number')
    throw new Error(`lens worker: ${type} without an id`)
  return data as LensRequest
}

/** Check an inbound main-thread message once, at the boundary. */
export function parseResponse(data: unknown): LensResponse {
  envelopeType(data, RESPONSE_TYPES, 'lens client')
  return data as LensResponse
}
