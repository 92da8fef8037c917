/** The frame every pane shares: a titled region with an optional toolbar, then the body. */

import type { ReactNode } from 'react'
import { formatCount } from './format-count.ts'

export interface PaneFrameProps {
  readonly title: string
  readonly testId: string
  readonly count: number
  readonly tools?: ReactNode
  readonly children: ReactNode
  readonly className?: string
}

export function PaneFrame({ title, testId, count, tools, children, className = '' }: PaneFrameProps) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      data-count={count}
      className={`flex min-h-0 min-w-0 flex-col bg-panel ${className}`}
    >
      <header className="flex items-center gap-2 border-b border-line bg-raised px-2 py-1">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h2>
        <span className="text-xs text-muted tabular-nums">{formatCount(count)}</span>
        <div className="ml-auto flex items-center gap-2">{tools}</div>
      </header>
      {children}
    </section>
  )
}
