/**
 * One row of the sessions home: a session's title (or first prompt), badges, counts, size and times, which open it;
 * beside them the row's compare controls: pick it as one of two runs to compare, and for a subagent or a fork whose
 * parent is listed, compare it with that parent at once (`[data-testid=session-compare-pick]`,
 * `[data-testid=session-compare-parent]`).
 */

import { memo } from 'react'
import { moneyText, roundAmount } from '../../core/cost/money-text.ts'
import type { Currency } from '../../core/index.ts'
import { formatBytes } from '../shared/format-bytes.ts'
import { formatCount } from '../shared/format-count.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import { relativeTime } from '../shared/relative-time.ts'
import { hostBadge, rowSource, sessionCost, type HomeRow } from './home-rows.ts'

function created(ms: number | undefined): string {
  if (ms === undefined) return ''
  const date = new Date(ms)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

export interface RowProps {
  // The row's parts, not the row: rows are rebuilt on every list change, items only when they changed (memo).
  readonly item: HomeRow['item']
  readonly depth: number
  readonly childCount: number
  readonly now: number
  readonly active: boolean
  /** The currency the cost column shows. */
  readonly currency: Currency
  /** Picked as the first of two runs to compare. */
  readonly picked: boolean
  /** Its parent is listed: one click compares them. */
  readonly parentListed: boolean
  onOpen(id: string): void
  onFocusRow(path: string): void
  onPick(id: string): void
  onCompareParent(parent: string, id: string): void
}

export const SessionRow = memo(function SessionRow({
  item,
  depth,
  childCount,
  now,
  active,
  picked,
  parentListed,
  currency,
  onOpen,
  onFocusRow,
  onPick,
  onCompareParent,
}: RowProps) {
  const title = item.title ?? null
  const fallback = item.prompt ?? (item.scanned === true ? 'no title' : '…')
  const source = rowSource(item)
  const badge = hostBadge(item)
  // A session only the host has holds no file here: no size to show.
  const onDisk = source === 'file' || item.diskPath !== undefined
  const cost = sessionCost(item, currency)
  return (
    <li
      data-testid="session-row"
      data-path={item.path}
      data-session-id={item.sessionId}
      data-title={title ?? ''}
      data-project={item.cwd ?? ''}
      data-updated={item.mtimeMs}
      data-created={item.createdAt ?? ''}
      data-events={item.eventCount ?? ''}
      data-running={item.running === true}
      data-kind={item.kind ?? 'root'}
      data-parent-id={item.parentSession ?? ''}
      data-source={source}
      data-cost={cost === undefined || cost === null ? '' : roundAmount(cost)}
      className={`flex cursor-pointer items-center gap-3 border-b border-line pr-3 [contain-intrinsic-size:auto_2.25rem] [content-visibility:auto] hover:bg-accent-soft ${
        active || picked ? 'bg-accent-soft' : ''
      }`}
      // The whole row opens the session (the button below is its keyboard and screen-reader face; its clicks bubble here).
      onClick={() => onOpen(item.sessionId)}
      onFocus={() => onFocusRow(item.path)}
    >
      <button
        type="button"
        data-row-open
        tabIndex={active ? 0 : -1}
        className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)_auto_5rem_5rem_5rem_6rem_8rem] items-center gap-3 py-1.5 pl-3 text-left"
      >
        <span className="flex min-w-0 items-baseline gap-2" style={{ paddingLeft: `${depth * 1.5}rem` }}>
          {depth > 0 ? (
            <span className="shrink-0 text-muted" aria-hidden="true">
              ↳
            </span>
          ) : null}
          <span className={`truncate ${title === null ? 'text-muted italic' : 'font-medium'}`} title={title ?? fallback}>
            <VisibleText text={title ?? fallback} />
          </span>
          {item.kind !== undefined && item.kind !== 'root' ? (
            <span className="shrink-0 text-xs text-muted">{item.kind}</span>
          ) : null}
          <span className="shrink-0 font-mono text-xs text-muted" title={item.sessionId}>
            {item.sessionId.replace(/^session-/, '').slice(0, 8)}
          </span>
          {item.warning !== undefined || item.headerError !== undefined ? (
            <span className="shrink-0 text-xs text-warn" title={item.headerError ?? item.warning}>
              ⚠ {item.headerError !== undefined ? 'header unreadable' : 'not as the harness writes it'}
            </span>
          ) : null}
        </span>
        <span className="flex items-center gap-2 text-xs">
          {badge === null ? null : (
            <span
              className={`rounded border px-1.5 ${
                badge.tone === 'danger'
                  ? 'border-danger text-danger'
                  : badge.tone === 'warn'
                    ? 'border-warn text-warn'
                    : 'border-accent text-accent'
              }`}
              data-testid="session-source"
              data-source={source}
              data-upstream={badge.upstream}
              title={
                item.diskPath === undefined
                  ? 'followed through the dsh web host'
                  : `followed through the dsh web host (its log: ${item.diskPath})`
              }
            >
              {badge.text}
            </span>
          )}
          {item.running === true ? (
            <span className="rounded bg-user px-1.5 py-0.5 font-semibold text-canvas" data-testid="session-running">
              running
            </span>
          ) : null}
          {childCount > 0 ? (
            <span className="text-muted" title={`${childCount} subagent or fork session(s) below`}>
              {childCount} child{childCount === 1 ? '' : 'ren'}
            </span>
          ) : null}
        </span>
        <span className="text-right text-xs text-muted tabular-nums">
          {item.eventCount === undefined ? '' : `${formatCount(item.eventCount)} ev`}
        </span>
        <span className="text-right text-xs text-muted tabular-nums">{onDisk ? formatBytes(item.sizeBytes) : ''}</span>
        <span
          className="text-right text-xs tabular-nums"
          title={
            cost === null
              ? 'no price: the rate card prices none of its calls in this currency'
              : "what its own calls cost (an estimate from the logged usage and the rate card); subagents' on their rows"
          }
        >
          {cost === undefined ? '' : cost === null ? 'no price' : moneyText(cost, currency)}
        </span>
        <span className="text-right text-xs tabular-nums" title={new Date(item.mtimeMs).toISOString()}>
          {relativeTime(item.mtimeMs, now)}
        </span>
        <span className="text-right text-xs text-muted tabular-nums" title="created">
          {created(item.createdAt)}
        </span>
      </button>
      <span className="flex w-40 shrink-0 items-center justify-end gap-2 text-xs" onClick={(event) => event.stopPropagation()}>
        {parentListed ? (
          <button
            type="button"
            tabIndex={active ? 0 : -1}
            data-testid="session-compare-parent"
            className="whitespace-nowrap rounded border border-line bg-raised px-1.5 hover:bg-panel"
            title={`Compare this ${item.kind ?? 'session'} with its parent (A: the parent, B: this one)`}
            onClick={() => item.parentSession !== undefined && onCompareParent(item.parentSession, item.sessionId)}
          >
            vs parent
          </button>
        ) : null}
        <label className="flex items-center gap-1 text-muted" title="Pick two sessions to compare them">
          <input
            type="checkbox"
            tabIndex={active ? 0 : -1}
            data-testid="session-compare-pick"
            checked={picked}
            onChange={() => onPick(item.sessionId)}
          />
          compare
        </label>
      </span>
    </li>
  )
})
