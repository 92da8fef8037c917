/**
 * The bundled demo (`npm run demo`): a scripted, seeded coding session in the "tabula" workspace and
 * the log of the subagent it starts, laid out like the harness's web export (the child under
 * `subagents/<id>/session.jsonl`, next to the parent).
 */

import { toJsonl } from '../jsonl.ts'
import type { GeneratedSession } from '../types.ts'
import { DEMO_TITLE, DEMO_TURNS } from './conversation.ts'
import { WORKSPACE } from './project-files.ts'
import { SYSTEM_PROMPT, TOOLS } from './request-header.ts'
import { DemoSessionWriter } from './session-writer.ts'

/**
 * 2026-09-15 10:12 UTC (a Tuesday, 18:12 in Beijing): the session's date matches the dates its tools print, and falls
 * after 2026-09-09 16:00 UTC, from when DeepSeek publishes CNY prices, so the demo's costs read in ¥ as well as $.
 */
const DEMO_CREATED_AT = 1_789_467_120_000
const DEMO_SEED = 7

export interface DemoSessions {
  readonly parent: GeneratedSession
  /** One-shot subagent children, in the order the parent started them. */
  readonly children: readonly GeneratedSession[]
}

export function demoSessions(): DemoSessions {
  const writer = new DemoSessionWriter({
    seed: DEMO_SEED,
    createdAt: DEMO_CREATED_AT,
    cwd: WORKSPACE,
    system: SYSTEM_PROMPT,
    tools: TOOLS,
  })
  DEMO_TURNS.forEach((turn, i) => {
    writer.runTurn(turn)
    if (i === 0) writer.providerTitle(DEMO_TITLE)
  })
  const written = writer.finish()
  return { parent: written.session, children: written.children.map((c) => c.session) }
}

/** A file of the demo, by its path relative to the parent's directory. */
export interface DemoFile {
  readonly path: string
  readonly text: string
}

/** Where a child goes relative to the parent: the web export's flattened `subagents/<id>/session.jsonl`. */
export function childPath(id: string): string {
  return `subagents/${id}/session.jsonl`
}

/** The parent as `parentName`, then every child under `subagents/`. */
export function demoFiles(parentName = 'demo-session.jsonl'): DemoFile[] {
  const { parent, children } = demoSessions()
  return [
    { path: parentName, text: toJsonl(parent) },
    ...children.map((c) => ({ path: childPath(c.header.id), text: toJsonl(c) })),
  ]
}
