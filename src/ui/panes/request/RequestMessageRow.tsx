/** One message of a step's request: position, seq, role, estimated tokens, how it changed since the previous step, and its text (as text). */

import type { ReactNode } from 'react'
import type { RequestMessageRow as Row } from '../../../protocol/step-request.ts'
import { formatCount } from '../../shared/format-count.ts'

/** How a message compares: with the previous step's request (the Request view), or the other run's (the Compare view). */
export type RowChange = 'kept' | 'appended' | 'replacement' | 'differs'

const ROLE_TEXT: Record<string, string> = { user: 'text-user', assistant: 'text-assistant', tool: 'text-tool' }
const CHANGE_MARK: Record<RowChange, { sign: string; className: string; title: string }> = {
  kept: { sign: '', className: '', title: '' },
  appended: { sign: '+', className: 'text-user', title: 'appended since the previous step' },
  replacement: { sign: '⇄', className: 'text-warn', title: 'replaces messages of the previous step' },
  differs: { sign: '≠', className: 'text-danger', title: "the other run's request does not hold this message" },
}

export function RequestMessageRow({
  row,
  position,
  change,
  firstDifference,
  tokensBefore,
  rejected,
  breakCost = null,
}: {
  row: Row
  position: number
  change: RowChange
  firstDifference: boolean
  tokensBefore: number
  /** The provider rules this message breaks, or null. */
  rejected: readonly string[] | null
  /** What the cache break at the first difference cost (RequestCost.tsx), said on its mark. */
  breakCost?: ReactNode
}) {
  const mark = CHANGE_MARK[change]
  return (
    <div className="px-2 py-1" data-rejected={rejected === null ? undefined : rejected.join(',')}>
      {firstDifference ? (
        <div
          data-testid="request-first-difference"
          className="-mx-2 -mt-1 mb-1 truncate border-t-2 border-danger bg-danger-soft px-2 py-0.5 text-[11px] font-semibold text-danger"
        >
          ▼ first difference · prefix cache stops here · ~{formatCount(tokensBefore)} tokens before it
          {breakCost}
        </div>
      ) : null}
      <div className="grid grid-cols-[2.25rem_0.75rem_3.75rem_1fr_auto] items-baseline gap-x-1.5 text-xs">
        <span className="text-right font-mono tabular-nums text-muted" title="index in the request's messages">
          {position}
        </span>
        <span className={`text-center font-mono ${mark.className}`} title={mark.title}>
          {mark.sign}
        </span>
        <span className="font-mono tabular-nums text-muted">#{row.seq}</span>
        <span className="min-w-0 truncate">
          {rejected !== null ? (
            <span className="font-semibold text-danger" title={`a provider rejects the request here: ${rejected.join(', ')}`}>
              ⚠{' '}
            </span>
          ) : null}
          <span className={`font-semibold ${ROLE_TEXT[row.role] ?? 'text-muted'}`}>{row.role}</span>
          {row.truncated ? <span className="text-muted"> · preview cut</span> : null}
        </span>
        <span className="font-mono tabular-nums text-muted" title="estimated tokens of this message">
          ~{formatCount(row.tokens)}
        </span>
      </div>
      {row.reasoning !== '' ? (
        <p className="ml-[7.875rem] line-clamp-1 whitespace-pre-wrap break-words text-xs italic text-muted">{row.reasoning}</p>
      ) : null}
      {row.text !== '' ? <p className="ml-[7.875rem] line-clamp-2 whitespace-pre-wrap break-words text-xs">{row.text}</p> : null}
      {row.toolCalls.map((call, i) => (
        <p key={i} className="ml-[7.875rem] line-clamp-1 break-all font-mono text-[11px]">
          <span className="text-tool">→ {call.name}</span> <span className="text-muted">{call.args}</span>
        </p>
      ))}
    </div>
  )
}
