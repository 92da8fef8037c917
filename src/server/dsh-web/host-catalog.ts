/**
 * The dsh web host's sessions as dsh-lens lists them: `session.list` as the baseline, kept current by the host stream
 * (`host/session-added`, `-status`, `-removed`), title projections from the mux, and subagent labels from
 * `subagent.list`. Pure (no I/O): the upstream feeds it and asks it for list items and synthesized headers.
 *
 * `host/session-removed` means the host let the session go from memory (the harness's `session/disposed`: a finished
 * subagent, for one), not that its log was deleted, so the row stays, idle.
 */

import type { SessionListItem, UpstreamState } from '../../live/protocol.ts'
import type { HostFrame, HostSessionSummary, SubagentEntry } from './host-wire.ts'

interface Row {
  sessionId: string
  updatedAt: number
  running: boolean
  blank: boolean
  parentSessionId?: string
  origin?: string
  cwd?: string
  agentPreset?: string
  title?: string
  /** Seq the title is as of: a projection frame with a higher seq wins (the harness client's rule). */
  titleSeq: number
  label?: string
  lastSeq?: number
}

/** Facts the followed sessions know better than the list (their last seq). */
export type FollowedFacts = (sessionId: string) => { readonly lastSeq: number } | undefined

export class HostCatalog {
  private rows = new Map<string, Row>()

  /** Replace everything with a `session.list` answer (labels learnt earlier are kept). */
  baseline(list: readonly HostSessionSummary[]): void {
    const next = new Map<string, Row>()
    for (const s of list) {
      const old = this.rows.get(s.sessionId)
      const oldTitleNewer = old?.title !== undefined && old.titleSeq > (s.titleSeq ?? -1)
      next.set(s.sessionId, {
        sessionId: s.sessionId,
        updatedAt: s.updatedAt,
        running: s.running,
        blank: s.blank,
        ...(s.parentSessionId === undefined ? {} : { parentSessionId: s.parentSessionId }),
        ...(s.origin === undefined ? {} : { origin: s.origin }),
        ...(s.cwd === undefined ? {} : { cwd: s.cwd }),
        ...(s.agentPreset === undefined ? {} : { agentPreset: s.agentPreset }),
        ...(oldTitleNewer
          ? { title: old.title as string, titleSeq: old.titleSeq }
          : s.title === undefined
            ? { titleSeq: -1 }
            : { title: s.title, titleSeq: s.titleSeq ?? -1 }),
        ...(old?.label === undefined ? {} : { label: old.label }),
        ...(s.asOfSeq === undefined ? {} : { lastSeq: s.asOfSeq }),
      })
    }
    this.rows = next
  }

  /** A host stream frame; true when the list changed. */
  apply(frame: HostFrame, now: number): boolean {
    switch (frame.kind) {
      case 'session-added': {
        const old = this.rows.get(frame.sessionId)
        this.rows.set(frame.sessionId, {
          titleSeq: -1,
          ...old,
          sessionId: frame.sessionId,
          updatedAt: old?.updatedAt ?? now,
          running: old?.running ?? false,
          blank: frame.blank,
          ...(frame.parentSessionId === undefined ? {} : { parentSessionId: frame.parentSessionId }),
          ...(frame.origin === undefined ? {} : { origin: frame.origin }),
          ...(frame.cwd === undefined ? {} : { cwd: frame.cwd }),
          ...(frame.agentPreset === undefined ? {} : { agentPreset: frame.agentPreset }),
        })
        return true
      }
      case 'session-status': {
        const row = this.rows.get(frame.sessionId)
        if (row === undefined) {
          this.rows.set(frame.sessionId, {
            sessionId: frame.sessionId,
            updatedAt: now,
            running: frame.running,
            blank: false,
            titleSeq: -1,
          })
          return true
        }
        if (row.running === frame.running) return false
        row.running = frame.running
        // The harness flips `blank` on the first run of a session (a blank session never runs).
        if (frame.running) {
          row.blank = false
          row.updatedAt = now
        }
        return true
      }
      case 'session-removed': {
        const row = this.rows.get(frame.sessionId)
        if (row === undefined || !row.running) return false
        row.running = false
        return true
      }
      case 'stream-error':
      case 'other':
        return false
    }
  }

  /**
   * A `session/projection` frame for `title`; true when it changed the title. The mux and the host stream race each
   * other, so a title may come for a session not listed yet: it gets a row, which `session-added` completes.
   */
  title(sessionId: string, value: unknown, seq: number, now = Date.now()): boolean {
    if (typeof value !== 'string' || value === '') return false
    let row = this.rows.get(sessionId)
    if (row === undefined) {
      row = { sessionId, updatedAt: now, running: false, blank: false, titleSeq: -1 }
      this.rows.set(sessionId, row)
    }
    if (seq < row.titleSeq) return false
    const changed = row.title !== value
    row.title = value
    row.titleSeq = seq
    return changed
  }

  /** `subagent.list` for one parent: the children's labels (and rows for children the list did not have yet). */
  children(parentId: string, entries: readonly SubagentEntry[], now: number): boolean {
    let changed = false
    for (const e of entries) {
      const row = this.rows.get(e.id)
      if (row === undefined) {
        this.rows.set(e.id, {
          sessionId: e.id,
          updatedAt: now,
          running: e.running,
          blank: false,
          parentSessionId: parentId,
          origin: 'subagent',
          titleSeq: -1,
          ...(e.label === undefined ? {} : { label: e.label }),
        })
        changed = true
      } else if (e.label !== undefined && row.label !== e.label) {
        row.label = e.label
        changed = true
      }
    }
    return changed
  }

  has(sessionId: string): boolean {
    return this.rows.has(sessionId)
  }

  running(sessionId: string): boolean {
    return this.rows.get(sessionId)?.running ?? false
  }

  titleOf(sessionId: string): string | null {
    return this.rows.get(sessionId)?.title ?? null
  }

  /** Parents whose children's labels are worth asking for. */
  parents(): string[] {
    const out = new Set<string>()
    for (const row of this.rows.values()) if (row.parentSessionId !== undefined) out.add(row.parentSessionId)
    return [...out]
  }

  /** Delegation depth from the parent chain (the header field the host does not send). */
  depthOf(sessionId: string): number {
    let depth = 0
    const seen = new Set<string>()
    for (let row = this.rows.get(sessionId); row?.parentSessionId !== undefined && !seen.has(row.sessionId);) {
      seen.add(row.sessionId)
      depth++
      row = this.rows.get(row.parentSessionId)
    }
    return depth
  }

  /**
   * A session header for a log the host does not send a header for: id, cwd, lineage and preset as the host lists
   * them; `createdAt` is the first event's time (the harness stamps its header a moment before), else the row's time.
   */
  headerLine(sessionId: string, firstEventTime: number | undefined): string {
    const row = this.rows.get(sessionId)
    const createdAt = Math.max(0, Math.floor(firstEventTime ?? row?.updatedAt ?? 0))
    return JSON.stringify({
      type: 'session',
      version: 0,
      id: sessionId,
      createdAt,
      ...(row?.cwd === undefined ? {} : { cwd: row.cwd }),
      ...(row?.parentSessionId === undefined ? {} : { parentSession: row.parentSessionId }),
      ...(row?.origin === 'subagent' ? { origin: 'subagent' } : {}),
      delegationDepth: this.depthOf(sessionId),
      ...(row?.agentPreset === undefined ? {} : { agentPreset: row.agentPreset }),
    })
  }

  /** The rows as viewer-protocol list items, newest first. */
  items(upstream: UpstreamState, followed: FollowedFacts): SessionListItem[] {
    const rows = [...this.rows.values()].sort((a, b) => b.updatedAt - a.updatedAt || a.sessionId.localeCompare(b.sessionId))
    const children = new Map<string, string[]>()
    for (const row of rows) {
      if (row.parentSessionId === undefined) continue
      const list = children.get(row.parentSessionId) ?? []
      list.push(row.sessionId)
      children.set(row.parentSessionId, list)
    }
    return rows.map((row) => {
      const lastSeq = followed(row.sessionId)?.lastSeq ?? row.lastSeq ?? null
      const kind = row.origin === 'subagent' ? 'subagent' : row.parentSessionId === undefined ? 'root' : 'fork'
      return {
        sessionId: row.sessionId,
        path: `dsh-web:${row.sessionId}`,
        source: 'dsh-web',
        encoding: 'dsh-web',
        kind,
        // The host answers for what a file scan would find: title and running are known now.
        scanned: true,
        ...(row.cwd === undefined ? {} : { cwd: row.cwd }),
        ...(row.parentSessionId === undefined ? {} : { parentSession: row.parentSessionId }),
        ...(row.origin === undefined ? {} : { origin: row.origin }),
        ...(row.agentPreset === undefined ? {} : { agentPreset: row.agentPreset }),
        children: children.get(row.sessionId) ?? [],
        sizeBytes: 0,
        mtimeMs: row.updatedAt,
        turnOpen: row.running,
        lastSeq,
        ...(lastSeq === null ? {} : { eventCount: lastSeq + 1 }),
        ...(row.title === undefined ? {} : { title: row.title }),
        running: row.running,
        blank: row.blank,
        upstream,
        ...(row.label === undefined ? {} : { label: row.label }),
      }
    })
  }
}

/**
 * One list for the page: the host's sessions and the files below the served paths, a session that is in both only
 * once, from the host (it knows more: running, titles, chunks as they stream), with its file as `diskPath`.
 */
export function mergeSessionLists(files: readonly SessionListItem[], host: readonly SessionListItem[]): SessionListItem[] {
  const hostIds = new Set(host.map((h) => h.sessionId))
  const fileById = new Map(files.map((f) => [f.sessionId, f]))
  const merged: SessionListItem[] = host.map((h) => {
    const file = fileById.get(h.sessionId)
    if (file === undefined) return h
    // The host's live facts win; what only the file scan knows (created, size, first prompt) fills in.
    const lastSeq = h.lastSeq ?? file.lastSeq
    const eventCount = h.eventCount ?? file.eventCount
    const title = h.title ?? file.title
    return {
      ...h,
      diskPath: file.path,
      ...(file.createdAt === undefined ? {} : { createdAt: file.createdAt }),
      ...(file.prompt === undefined ? {} : { prompt: file.prompt }),
      ...(eventCount === undefined ? {} : { eventCount }),
      ...(title === undefined ? {} : { title }),
      sizeBytes: file.sizeBytes,
      lastSeq,
    }
  })
  for (const f of files) if (!hostIds.has(f.sessionId)) merged.push({ ...f, source: 'file' })
  // Children across both sources: a file child of a host parent is still its child.
  const children = new Map<string, string[]>()
  for (const item of merged) {
    if (item.parentSession === undefined) continue
    const list = children.get(item.parentSession) ?? []
    list.push(item.sessionId)
    children.set(item.parentSession, list)
  }
  return merged.map((item) => ({ ...item, children: children.get(item.sessionId) ?? [] }))
}
