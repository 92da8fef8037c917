/**
 * Pure: Share…'s review in numbers. The secrets of every log of the bundle, merged by hash (a key in a session and in
 * its subagent is one secret, in more places), and what the choices made will remove: secrets and places replaced,
 * values kept by the allow list, home paths replaced.
 */

import type { SecretGroup } from '../../protocol/secrets.ts'
import type { ShareReview } from '../../protocol/share.ts'
import type { ShareOptions } from '../../store/slices/share-slice.ts'

export interface ReviewGroup extends SecretGroup {
  /** The log of its first place (its path in the bundle). */
  readonly log: string
  /** Whether its first place is in the open log (its link can land there). */
  readonly inOpenLog: boolean
}

export function reviewGroups(review: ShareReview): ReviewGroup[] {
  const groups = new Map<string, ReviewGroup>()
  review.logs.forEach((log, k) => {
    for (const g of log.distinct) {
      const held = groups.get(g.hash)
      if (held === undefined) groups.set(g.hash, { ...g, log: log.path, inOpenLog: k === 0 })
      else groups.set(g.hash, { ...held, places: held.places + g.places, seenPlaces: held.seenPlaces + g.seenPlaces })
    }
  })
  return [...groups.values()]
}

export interface ShareCounts {
  /** Distinct secrets, and their places, that the bundle will not hold. */
  readonly secrets: number
  readonly places: number
  /** Of those, secrets the model was sent. */
  readonly sent: number
  /** Distinct secrets kept by the allow list, and their places. */
  readonly kept: number
  readonly keptPlaces: number
  /** Home paths and `name@` replaced (0 unless "redact paths" is on). */
  readonly paths: number
}

export function shareCounts(review: ShareReview, allow: readonly string[], options: ShareOptions): ShareCounts {
  const groups = reviewGroups(review)
  const kept = options.redact ? groups.filter((g) => allow.includes(g.hash)) : groups
  const removed = options.redact ? groups.filter((g) => !allow.includes(g.hash)) : []
  return {
    secrets: removed.length,
    places: removed.reduce((n, g) => n + g.places, 0),
    sent: removed.filter((g) => g.seenPlaces > 0).length,
    kept: kept.length,
    keptPlaces: kept.reduce((n, g) => n + g.places, 0),
    paths: options.redact && options.redactPaths ? review.logs.reduce((n, l) => n + l.pathPlaces, 0) : 0,
  }
}
