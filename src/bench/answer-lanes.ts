/**
 * Answers when asked (issue 35): what each answer costs the reader who asks for it, and what a load costs with and
 * without the indexes the viewer keeps. Measured in process on the bench logs (`npm run bench`, the "Answers when
 * asked" table): every round loads the log three ways (no index kept, as `fold --json`; the transcript's indexes, as
 * the viewer's worker; every index) and, on a fresh load as the viewer makes it, asks each answer once: its first ask
 * pays for the indexes it builds. Figures are medians of rounds, and each answer's share of the viewer's load.
 *
 * Adding an answer is one entry in `ANSWER_LANES`: the answer computed from a loaded `LensLog` as its reader asks for
 * it (content search reads files, not a loaded log: content-index-bench.ts prices it). An answer computed at load
 * instead (in `LensLog`'s ingest, or an index the viewer keeps) may cost at most 3% of the load: the "all six" column
 * of the load row says what keeping every index costs.
 */

import {
  compactionsForgot,
  compareSessions,
  LensLog,
  logCost,
  scanSecrets,
  LOG_INDEXES,
  stepList,
  stepRequest,
  timingParts,
  TRANSCRIPT_INDEXES,
  type ContentChecksum,
  type LogIndex,
} from '../core/index.ts'
import { gc, interleave, median } from './measure.ts'
import { SLICE } from './ours.ts'

export interface AnswerLane {
  readonly name: string
  ask(log: LensLog): unknown
}

export const ANSWER_LANES: readonly AnswerLane[] = [
  { name: 'step timing (timingParts: the Time mode, `timing`)', ask: (log) => timingParts(log) },
  { name: 'every step with its rejections (stepList: the picker, banner)', ask: (log) => stepList(log) },
  {
    name: "the last step's request (stepRequest: the Request view)",
    ask: (log) => stepRequest(log, log.turns.turns.reduce((n, t) => n + t.steps.length, 0) - 1),
  },
  { name: 'what each compaction forgot (compactionsForgot)', ask: (log) => compactionsForgot(log) },
  { name: 'what it cost, in CNY (logCost: the Cost mode, `cost`)', ask: (log) => logCost(log, 'CNY') },
  { name: 'the secrets it holds (scanSecrets: the Secrets answer)', ask: (log) => scanSecrets(log) },
  // The comparison's work for a run against its own second run: every step's request paired and keyed on both sides.
  { name: 'a run compared with itself (compareSessions: the Compare view)', ask: (log) => compareSessions(log, log) },
]

function load(bytes: Uint8Array, checksum: ContentChecksum, keep: readonly LogIndex[]): LensLog {
  const log = new LensLog({ checksum, keep })
  for (let at = 0; at < bytes.length; at += SLICE) log.push(bytes.subarray(at, at + SLICE))
  log.finish()
  return log
}

export interface AnswerCosts {
  /** Median ms of a load keeping no index / the viewer's / every one. */
  readonly loadMs: { readonly none: number; readonly viewer: number; readonly all: number }
  /** Per answer, median ms of its first ask on a fresh viewer load. */
  readonly answers: readonly { readonly name: string; readonly ms: number }[]
}

export function answerCosts(bytes: Uint8Array, checksum: ContentChecksum, rounds: number): AnswerCosts {
  const loads = interleave(rounds, {
    none: () => void load(bytes, checksum, []),
    viewer: () => void load(bytes, checksum, TRANSCRIPT_INDEXES),
    all: () => void load(bytes, checksum, LOG_INDEXES),
  })
  const answers = ANSWER_LANES.map((lane) => {
    const times: number[] = []
    for (let r = 0; r < rounds; r++) {
      const log = load(bytes, checksum, TRANSCRIPT_INDEXES)
      gc()
      const t0 = performance.now()
      lane.ask(log)
      times.push(performance.now() - t0)
    }
    return { name: lane.name, ms: median(times) }
  })
  return {
    loadMs: { none: median(loads['none'] ?? []), viewer: median(loads['viewer'] ?? []), all: median(loads['all'] ?? []) },
    answers,
  }
}
