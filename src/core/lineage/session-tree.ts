/**
 * The tree of sessions that belong together (format reference 5): `parentSession -> children` from the headers
 * (authoritative), the kind of each link (`origin:'subagent'` is a delegated child, a `parentSession` without origin a
 * user fork), the recursion depth, and where the log allows it the parent's event that started each child:
 * - `agent-start`: the parent's `tool-workflow/agent-start` names the child (`childId`), exact;
 * - `started-subagent`: a continuable start's tool result text `started subagent <id>`, exact;
 * - `descriptor-label`: one-shot children leave nothing structured, so the child's `subagent/descriptor` label is
 *   matched to the `description` argument of the parent's tool calls, the latest one at or before the child's
 *   `createdAt`, each call used once: a heuristic, and marked as one.
 * Pure: inputs are headers plus the facts collected from each log (`LineageFactCollector`).
 */

import type { SessionHeader } from '../model/log-event.ts'
import type { LineageFacts } from './lineage-facts.ts'
import { sessionKindOf, type SessionKind } from './session-kind.ts'

export interface LineageInput {
  /** Unique key of this input (a file path or a zip entry name): two files may carry the same session id. */
  readonly key: string
  readonly header: SessionHeader | null
  readonly eventCount: number | null
  readonly facts: LineageFacts | null
}

export type StartVia = 'agent-start' | 'started-subagent' | 'descriptor-label'

/** The parent's event that started a child. */
export interface StartLink {
  readonly parentSeq: number
  readonly via: StartVia
  /** True when the link is a correlation (label and time), not a pointer the log holds. */
  readonly heuristic: boolean
  readonly callId: string | null
}

export type { SessionKind }

export interface SessionNode {
  readonly key: string
  readonly id: string | null
  /** `subagent` (origin), `fork` (parentSession without origin), `root` (no parentSession). */
  readonly kind: SessionKind
  readonly parentId: string | null
  /** Key of the parent among the inputs, or null when it is not loaded (or the session is a root). */
  readonly parentKey: string | null
  readonly children: readonly string[]
  /** Depth in this tree (0 for a shown root). */
  readonly depth: number
  /** The header's `delegationDepth`, as written. */
  readonly delegationDepth: number | null
  readonly seedLength: number | null
  readonly eventCount: number | null
  readonly label: string | null
  readonly start: StartLink | null
  /**
   * Whether the parent's log was searched for the start. The live picker's list carries no log facts: there a missing
   * start means "not looked", and saying "not found" would be a wrong answer.
   */
  readonly startSought: boolean
  /** Parent seqs where this child reported back (`subagent-settled` / `subagent-report` messages). */
  readonly reportSeqs: readonly number[]
  /** Plain notes on what does not add up (depth off by more than one, a second session with the same id, ...). */
  readonly notes: readonly string[]
}

export interface SessionTree {
  readonly nodes: ReadonlyMap<string, SessionNode>
  /** Keys of nodes without a loaded parent, in input order. */
  readonly roots: readonly string[]
  /** Every key, parents before children (depth-first, children by `createdAt`). */
  readonly order: readonly string[]
}

interface Draft {
  key: string
  id: string | null
  kind: SessionKind
  parentId: string | null
  parentKey: string | null
  children: string[]
  depth: number
  delegationDepth: number | null
  seedLength: number | null
  eventCount: number | null
  label: string | null
  start: StartLink | null
  startSought: boolean
  reportSeqs: number[]
  notes: string[]
  createdAt: number
  facts: LineageFacts | null
}

function exactStart(parent: LineageFacts, childId: string): StartLink | null {
  const workflow = parent.agentStarts.find((a) => a.childId === childId)
  if (workflow !== undefined) return { parentSeq: workflow.seq, via: 'agent-start', heuristic: false, callId: null }
  const started = parent.startedSubagents.find((s) => s.childId === childId)
  if (started !== undefined) return { parentSeq: started.seq, via: 'started-subagent', heuristic: false, callId: started.callId }
  return null
}

export function buildSessionTree(inputs: readonly LineageInput[]): SessionTree {
  const drafts: Draft[] = inputs.map((input) => {
    const h = input.header
    const parentId = typeof h?.parentSession === 'string' ? h.parentSession : null
    return {
      key: input.key,
      id: typeof h?.id === 'string' ? h.id : null,
      kind: sessionKindOf(h),
      parentId,
      parentKey: null,
      children: [],
      depth: 0,
      delegationDepth: typeof h?.delegationDepth === 'number' ? h.delegationDepth : null,
      seedLength: typeof h?.seedLength === 'number' ? h.seedLength : null,
      eventCount: input.eventCount,
      label: input.facts?.descriptor?.label ?? null,
      start: null,
      startSought: false,
      reportSeqs: [],
      notes: [],
      createdAt: typeof h?.createdAt === 'number' ? h.createdAt : Number.POSITIVE_INFINITY,
      facts: input.facts,
    }
  })
  const byId = new Map<string, Draft>()
  for (const d of drafts) {
    if (d.id === null) continue
    const first = byId.get(d.id)
    if (first === undefined) byId.set(d.id, d)
    else d.notes.push(`another loaded log (${first.key}) has the same session id; children link to that one`)
  }
  for (const d of drafts) {
    if (d.parentId === null) continue
    const parent = byId.get(d.parentId)
    if (parent === undefined || parent === d) {
      d.notes.push(`parent session ${d.parentId} is not among the loaded logs`)
      continue
    }
    d.parentKey = parent.key
  }
  const byKey = new Map(drafts.map((d) => [d.key, d]))
  // A header cycle (a -> b -> a) cannot come from the harness; break it at the first member met so the tree is finite.
  for (const d of drafts) {
    const seen = new Set<Draft>([d])
    for (let p = d.parentKey; p !== null;) {
      const parent = byKey.get(p) as Draft
      if (seen.has(parent)) {
        d.notes.push(`the parentSession chain loops back to ${d.key}; shown as a root`)
        d.parentKey = null
        break
      }
      seen.add(parent)
      p = parent.parentKey
    }
  }
  const kidsOf = new Map<string, Draft[]>()
  for (const d of drafts) if (d.parentKey !== null) kidsOf.set(d.parentKey, [...(kidsOf.get(d.parentKey) ?? []), d])
  for (const parent of drafts) {
    const kids = (kidsOf.get(parent.key) ?? []).sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1))
    parent.children = kids.map((c) => c.key)
    const used = new Set<number>()
    const facts = parent.facts
    for (const child of kids) {
      if (facts === null || child.id === null) continue
      child.startSought = true
      child.reportSeqs = facts.reports.filter((r) => r.senderSessionId === child.id).map((r) => r.seq)
      const exact = exactStart(facts, child.id)
      if (exact !== null) {
        child.start = exact
        continue
      }
      if (child.label === null) continue
      const candidates = facts.toolCalls.filter(
        (c, i) => c.description === child.label && !used.has(i) && (c.time === null || c.time <= child.createdAt),
      )
      const pick = candidates.at(-1) ?? facts.toolCalls.find((c, i) => c.description === child.label && !used.has(i))
      if (pick === undefined) continue
      used.add(facts.toolCalls.indexOf(pick))
      child.start = { parentSeq: pick.seq, via: 'descriptor-label', heuristic: true, callId: pick.callId }
    }
  }
  const order: string[] = []
  const roots = drafts.filter((d) => d.parentKey === null).map((d) => d.key)
  const visit = (d: Draft, depth: number): void => {
    d.depth = depth
    order.push(d.key)
    const parent = d.parentKey === null ? null : (byKey.get(d.parentKey) as Draft)
    if (d.kind === 'subagent' && parent !== null && parent.delegationDepth !== null && d.delegationDepth !== null) {
      if (d.delegationDepth !== parent.delegationDepth + 1)
        d.notes.push(`delegationDepth ${d.delegationDepth}, but its parent's is ${parent.delegationDepth} (expected parent + 1)`)
    }
    for (const key of d.children) visit(byKey.get(key) as Draft, depth + 1)
  }
  for (const key of roots) visit(byKey.get(key) as Draft, 0)
  const nodes = new Map<string, SessionNode>()
  for (const d of drafts) {
    const { createdAt: _c, facts: _f, ...node } = d
    nodes.set(d.key, node)
  }
  return { nodes, roots, order }
}
