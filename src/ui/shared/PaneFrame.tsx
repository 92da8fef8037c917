/**
 * The frame every pane shares: a titled region (its `data-testid`, and `data-count` when it counts something), a
 * header line (title, what the pane holds, status, then its tools on the right), then the body. One header, so the
 * panes' headers cannot drift apart: counts are always grouped the same way (`formatCount`).
 */

import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import { formatCount } from './format-count.ts'

const COUNT_TONE = { muted: 'text-muted', warn: 'text-warn', danger: 'text-danger' } as const

export interface PaneFrameProps extends Omit<ComponentPropsWithoutRef<'section'>, 'title' | 'children'> {
  readonly title: string
  readonly testId: string
  /** What the pane lists: `data-count` and the header's figure. Omitted: neither. */
  readonly count?: number
  /** Said after the figure (`12 messages`). */
  readonly countUnit?: string
  readonly countTone?: keyof typeof COUNT_TONE
  /** Between the title and the count (the Request view's step). */
  readonly lead?: ReactNode
  /** After the count: what the pane shows of it. */
  readonly status?: ReactNode
  /** Right-aligned controls. */
  readonly tools?: ReactNode
  /**
   * The header wraps onto a second line in a narrow window instead of cutting its end off; in a pane narrower than
   * 30rem the count is left to screen readers first (the lead says it too, e.g. the Request view's step picker).
   */
  readonly wrap?: boolean
  readonly children: ReactNode
}

export function PaneFrame({
  title,
  testId,
  count,
  countUnit,
  countTone = 'muted',
  lead,
  status,
  tools,
  wrap = false,
  children,
  className = '',
  ...section
}: PaneFrameProps) {
  return (
    <section
      {...section}
      aria-label={title}
      data-testid={testId}
      data-count={count}
      className={`flex min-h-0 min-w-0 flex-col bg-panel ${wrap ? '@container' : ''} ${className}`}
    >
      <header className={`flex items-center gap-2 border-b border-line bg-raised px-2 py-1 ${wrap ? 'flex-wrap' : ''}`}>
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h2>
        {lead}
        {count === undefined ? null : (
          <span className={`text-xs tabular-nums ${COUNT_TONE[countTone]} ${wrap ? '@max-[30rem]:sr-only' : ''}`}>
            {countUnit === undefined ? formatCount(count) : `${formatCount(count)} ${countUnit}`}
          </span>
        )}
        {status}
        {tools === undefined ? null : (
          <div className={`ml-auto flex items-center gap-2 ${wrap ? 'flex-wrap justify-end' : ''}`}>{tools}</div>
        )}
      </header>
      {children}
    </section>
  )
}
