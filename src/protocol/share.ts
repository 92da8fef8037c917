/**
 * Share… on the wire: the review of what a bundle will hold (each log's secrets, grouped, and its home paths), then
 * the bundle itself, one HTML file made in the worker from the viewer's template and the (redacted, compressed) logs.
 * The page never holds a log's text or a secret: it sends choices (allow list by hash, paths, redaction on or off)
 * and gets back counts and a Blob.
 */

import type { BundleRedaction } from '../core/index.ts'
import type { SecretFindingView, SecretGroup } from './secrets.ts'

/** A log to bundle: the open one (its bytes as the worker can have them again), or another by its File. */
export type ShareLogSource =
  { readonly kind: 'open'; readonly path: string } | { readonly kind: 'blob'; readonly path: string; readonly blob: Blob }

export interface ShareLogReview {
  /** Its name in the bundle (`subagents/<id>/<file>` for a subagent, the export's layout). */
  readonly path: string
  readonly sessionId: string | null
  readonly events: number
  readonly encoding: 'jsonl' | 'zstd'
  /** When the bundle will not hold the bytes exactly as opened, why, in one sentence (else null). */
  readonly note: string | null
  /** Places found, the first `SECRETS_LISTED` of them, and the distinct secrets. */
  readonly total: number
  readonly findings: readonly SecretFindingView[]
  readonly distinct: readonly SecretGroup[]
  /** User names in home paths, and the home paths and `name@` they stand in (what "redact paths" replaces). */
  readonly pathNames: number
  readonly pathPlaces: number
}

export interface ShareReview {
  /** The worker's job: what `share-build` builds (one job at a time; a new review drops the last). */
  readonly job: number
  readonly session: { readonly id: string | null; readonly title: string | null }
  readonly logs: readonly ShareLogReview[]
  /** Why no bundle can be written from this page (its server has no bundle template), or null. */
  readonly templateMissing: string | null
}

export interface ShareReviewArgs {
  readonly logs: readonly ShareLogSource[]
  /** The viewer's bundle template (`dsh-lens-bundle.html` beside the page), same origin. */
  readonly templateUrl: string
}

export interface ShareBuildArgs {
  readonly job: number
  readonly redact: boolean
  readonly redactPaths: boolean
  /** Hashes of values to keep (`SecretFindingView.hash`). */
  readonly allow: readonly string[]
}

export interface ShareBundleFile {
  readonly blob: Blob
  /** A file name for it: the root log's name with `.html`. */
  readonly name: string
  readonly logs: number
  readonly redaction: BundleRedaction
}
