/**
 * The Secrets answer (issue 39): the core's `scanSecrets` over the open log, asked for by the page (the Secrets
 * panel, Share…'s review), never while the log loads. The scan is kept per log and length, so the panel, the
 * inspector's places at an event and a review cost one scan; a live log that grew is scanned again when asked.
 * Each place says when the model was sent it: its visible ranges with the steps whose requests carried it
 * (`stepsInRanges`, as search says it), so "the model was sent your AWS secret at steps 2.1–4.3" is read off it.
 */

import { scanSecrets, stepMarks, stepsInRanges, type LensLog, type SecretScan, type StepMark } from '../core/index.ts'
import {
  SECRETS_LISTED,
  type SecretFindingView,
  type SecretGroup,
  type SecretsAnswer,
  type SecretsAtAnswer,
} from '../protocol/secrets.ts'

export interface ScannedLog {
  readonly length: number
  readonly scan: SecretScan
  /** Every place, in log order, in the protocol's shape. */
  readonly places: readonly SecretFindingView[]
}

const scans = new WeakMap<LensLog, ScannedLog>()

/** The scan of `log` at its current length (made now, or the one kept for this length). */
export function scannedLog(log: LensLog): ScannedLog {
  const kept = scans.get(log)
  if (kept !== undefined && kept.length === log.length) return kept
  const scan = scanSecrets(log)
  const scanned = { length: log.length, scan, places: placesOf(log, scan) }
  scans.set(log, scanned)
  return scanned
}

/** The places of a scan, each with the steps whose requests carried it. */
export function placesOf(log: LensLog, scan: SecretScan): SecretFindingView[] {
  let marks: StepMark[] | null = null
  return scan.findings.map((f) => {
    if (f.visible.length > 0) marks ??= stepMarks(log)
    return {
      index: f.index,
      seq: f.seq,
      line: f.line,
      field: f.field,
      kind: f.kind,
      masked: f.masked,
      hash: f.hash,
      context: f.context,
      seen: f.visible.length === 0 ? [] : stepsInRanges(log, f.visible, marks ?? []),
    }
  })
}

/** Places grouped by secret (hash), in order of first place. */
export function secretGroups(places: readonly SecretFindingView[]): SecretGroup[] {
  const groups = new Map<
    string,
    { first: SecretFindingView; firstSeen: SecretFindingView | null; places: number; seenPlaces: number }
  >()
  for (const p of places) {
    const seen = p.seen.length > 0
    const g = groups.get(p.hash)
    if (g === undefined) groups.set(p.hash, { first: p, firstSeen: seen ? p : null, places: 1, seenPlaces: seen ? 1 : 0 })
    else {
      g.places++
      if (seen) {
        g.seenPlaces++
        g.firstSeen ??= p
      }
    }
  }
  return [...groups.values()].map(({ first, firstSeen, places: n, seenPlaces }) => ({
    hash: first.hash,
    kind: first.kind,
    masked: first.masked,
    places: n,
    seenPlaces,
    first,
    firstSeen,
  }))
}

export function secretsAnswer(log: LensLog): SecretsAnswer {
  const { length, places } = scannedLog(log)
  return { length, total: places.length, findings: places.slice(0, SECRETS_LISTED), distinct: secretGroups(places) }
}

/** The places at event `index`, from the scan kept for this log at its length: asking here never scans. */
export function secretsAt(log: LensLog, index: number): SecretsAtAnswer {
  const kept = scans.get(log)
  if (kept === undefined || kept.length !== log.length) return { scanned: false, findings: [] }
  return { scanned: true, findings: kept.places.filter((p) => p.index === index) }
}
