/**
 * The sessions tree: one row per session, indented by depth, with its kind (root / subagent / fork), event count,
 * label, how the parent started it (exact pointer or heuristic label match, with the parent's seq as a link), the
 * fork seed check, and notes. Used by the sessions drawer (files, folders, zips) and by the live session picker.
 *
 * Contract: `[data-testid=session-tree]` with `data-count`; one `[data-testid=session-node]` per session with
 * `data-session-id`, `data-key`, `data-kind`, `data-depth`, `data-parent-id`, `data-current`; inside it the open button
 * (`optionTestId`, default `session-open`), and for a child with a known start `[data-testid=session-start-link]` with
 * `data-parent-seq` and `data-heuristic`.
 */

import { VisibleText } from '../shared/VisibleText.tsx'
import type { ReactNode } from 'react'
import type { SeedCheck, SessionKind, StartLink } from '../../core/index.ts'
import { formatCount } from '../shared/format-count.ts'

export interface TreeRow {
  readonly key: string
  readonly id: string | null
  readonly kind: SessionKind
  readonly depth: number
  readonly parentKey: string | null
  readonly parentId: string | null
  readonly eventCount: number | null
  readonly label: string | null
  readonly start: StartLink | null
  readonly startSought: boolean
  readonly reportSeqs: readonly number[]
  readonly notes: readonly string[]
  readonly seed: SeedCheck | null
  /** Extra line under the row (the live picker: cwd, size, times). */
  readonly detail?: ReactNode
}

export interface SessionTreeProps {
  readonly rows: readonly TreeRow[]
  readonly current: string | null
  onOpen(key: string): void
  /** Open session `key` with the cursor at `seq` (a start link or a report). Without it seqs are shown, not linked. */
  onJump?(key: string, seq: number): void
  readonly optionTestId?: string
}

const VIA: Record<StartLink['via'], string> = {
  'agent-start': 'tool-workflow/agent-start',
  'started-subagent': '“started subagent” tool result',
  'descriptor-label': 'tool call whose description matches its label (heuristic)',
}

const KIND_STYLE: Record<SessionKind, string> = {
  root: 'border-line text-muted',
  subagent: 'border-accent text-accent',
  fork: 'border-user text-user',
}

function SeqButton({
  seq,
  title,
  onClick,
  testId,
  heuristic,
}: {
  seq: number
  title: string
  onClick?: () => void
  testId: string
  heuristic?: boolean
}) {
  if (onClick === undefined) return <span className="font-mono">#{seq}</span>
  return (
    <button
      type="button"
      className="font-mono text-accent underline-offset-2 hover:underline"
      title={title}
      data-testid={testId}
      data-parent-seq={seq}
      data-heuristic={heuristic === undefined ? undefined : String(heuristic)}
      onClick={(event) => {
        event.stopPropagation()
        onClick()
      }}
    >
      #{seq}
    </button>
  )
}

export function SessionTree({ rows, current, onOpen, onJump, optionTestId = 'session-open' }: SessionTreeProps) {
  return (
    <ul className="min-h-0 overflow-auto text-xs" data-testid="session-tree" data-count={rows.length} role="tree">
      {rows.map((row) => {
        const isCurrent = row.key === current
        const parentKey = row.parentKey
        return (
          <li
            key={row.key}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-selected={isCurrent}
            className={`border-b border-line ${isCurrent ? 'bg-accent-soft' : ''}`}
            data-testid="session-node"
            data-session-id={row.id ?? ''}
            data-key={row.key}
            data-kind={row.kind}
            data-depth={row.depth}
            data-parent-id={row.parentId ?? ''}
            data-current={String(isCurrent)}
          >
            <div className="flex flex-col gap-0.5 py-1.5 pr-2" style={{ paddingLeft: `${0.5 + row.depth * 1.1}rem` }}>
              <button
                type="button"
                className="flex items-center gap-2 text-left hover:underline"
                data-testid={optionTestId}
                onClick={() => onOpen(row.key)}
                title={row.key}
              >
                <span className="font-mono">
                  {row.depth > 0 ? '↳ ' : ''}
                  {row.id === null ? '(no id)' : <VisibleText text={row.id} />}
                </span>
                <span className={`rounded border px-1 text-[10px] uppercase ${KIND_STYLE[row.kind]}`}>{row.kind}</span>
                {row.eventCount !== null ? <span className="text-muted">{formatCount(row.eventCount)} events</span> : null}
              </button>
              {row.label !== null ? (
                <span className="text-muted">
                  “<VisibleText text={row.label} />”
                </span>
              ) : null}
              {row.start !== null ? (
                <span className="text-muted">
                  started at parent{' '}
                  <SeqButton
                    seq={row.start.parentSeq}
                    title={`Open the parent at seq ${row.start.parentSeq}`}
                    testId="session-start-link"
                    heuristic={row.start.heuristic}
                    {...(onJump !== undefined && parentKey !== null
                      ? { onClick: () => onJump(parentKey, row.start?.parentSeq ?? 0) }
                      : {})}
                  />{' '}
                  by {VIA[row.start.via]}
                  {row.start.callId !== null ? (
                    <span className="font-mono">
                      {' '}
                      (<VisibleText text={row.start.callId} />)
                    </span>
                  ) : null}
                </span>
              ) : row.kind === 'subagent' && parentKey !== null && row.startSought ? (
                <span className="text-muted">parent's starting event not found in its log</span>
              ) : null}
              {row.reportSeqs.length > 0 && parentKey !== null ? (
                <span className="text-muted">
                  reported back at parent{' '}
                  {row.reportSeqs.map((seq) => (
                    <span key={seq} className="mr-1">
                      <SeqButton
                        seq={seq}
                        title={`Open the parent at seq ${seq}`}
                        testId="session-report-link"
                        {...(onJump !== undefined ? { onClick: () => onJump(parentKey, seq) } : {})}
                      />
                    </span>
                  ))}
                </span>
              ) : null}
              {row.seed !== null ? (
                <span
                  className={row.seed.divergesAt === null ? 'text-muted' : 'text-danger'}
                  data-testid="session-seed"
                  data-seed-length={row.seed.seedLength}
                  data-diverges-at={row.seed.divergesAt ?? ''}
                >
                  {row.seed.divergesAt === null
                    ? `shares its first ${row.seed.seedLength} events (seq 0–${row.seed.seedLength - 1}) with the parent`
                    : `seed of ${row.seed.seedLength}: ${row.seed.reason ?? ''}`}
                </span>
              ) : null}
              {row.notes.map((note) => (
                <span key={note} className="text-danger">
                  {note}
                </span>
              ))}
              {row.detail}
            </div>
          </li>
        )
      })}
    </ul>
  )
}

/** Rows of a tree (core `SessionTree`) in its order, with the seed checks when there are any. */
export function treeRows(
  tree: { readonly order: readonly string[]; readonly nodes: ReadonlyMap<string, Omit<TreeRow, 'seed' | 'detail'>> },
  seeds: Readonly<Record<string, SeedCheck>> = {},
  detail?: (key: string) => ReactNode,
): TreeRow[] {
  return tree.order.map((key) => {
    const node = tree.nodes.get(key) as Omit<TreeRow, 'seed' | 'detail'>
    return { ...node, seed: seeds[key] ?? null, ...(detail !== undefined ? { detail: detail(key) } : {}) }
  })
}
