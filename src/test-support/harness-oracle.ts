/**
 * The harness's own verdict on an event list, from its published fold
 * (`@deepseek-ai/dsh-session/surface`, a devDependency used only as a test oracle):
 * the first violation with its index and text, and the strict results before it.
 */

import { SurfaceManager, foldSurface } from '@deepseek-ai/dsh-session/surface'

export interface HarnessVerdict {
  nodes: number[]
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
  error: { index: number; message: string } | null
  replaceGeneration: number
}

type OracleEvent = Parameters<typeof foldSurface>[0][number]

export function harnessVerdict(events: readonly unknown[]): HarnessVerdict {
  // SurfaceManager validates one candidate at a time with the same checks as
  // foldSurface, so it tells *where* foldSurface throws.
  const log: OracleEvent[] = []
  const manager = new SurfaceManager(log)
  let error: HarnessVerdict['error'] = null
  for (const [index, event] of events.entries()) {
    try {
      manager.validateNext(event as OracleEvent)
    } catch (e) {
      error = { index, message: e instanceof Error ? e.message : String(e) }
      break
    }
    log.push(event as OracleEvent)
  }
  const prefix = error === null ? events : events.slice(0, error.index)
  let folded: ReturnType<typeof foldSurface>
  try {
    folded = foldSurface(prefix as OracleEvent[])
  } catch (e) {
    throw new Error(`oracle inconsistency: foldSurface rejects a prefix SurfaceManager accepted: ${String(e)}`)
  }
  if (error === null) {
    // Cross-check the two harness entry points on the full log.
    try {
      foldSurface(events as OracleEvent[])
    } catch (e) {
      throw new Error(`oracle inconsistency: foldSurface throws on a log SurfaceManager accepted: ${String(e)}`)
    }
  }
  return {
    nodes: [...folded.nodes],
    replacements: folded.replacements.map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
    error,
    replaceGeneration: manager.replaceGeneration,
  }
}
