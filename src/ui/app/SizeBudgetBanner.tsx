/**
 * Says that the worker's decoded-bytes budget stopped the load (`LogSummary.sizeBudget`): how far it read, the
 * budget, how many events are shown, and that the CLI reads the whole file. A warning, not a verdict: the events
 * shown are the log's exact prefix. The log's name is untrusted, so it is shown with hidden characters as markers.
 */

import { useLensStore } from '../../store/lens-store-context.tsx'
import { selectSummary } from '../../store/selectors.ts'
import type { SizeBudgetCut } from '../../protocol/log-summary.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import { formatCount } from '../shared/format-count.ts'

const MB = 1024 * 1024

/** Megabytes with one decimal, or KB below 1 MB (a test budget is a few KB). */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * MB && bytes % (1024 * MB) === 0) return `${bytes / (1024 * MB)} GiB`
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`
  return `${(bytes / 1024).toFixed(1)} KB`
}

/** The banner's sentence before the CLI hint (plain text, no log content). */
export function sizeBudgetSentence(cut: SizeBudgetCut): string {
  const of = cut.totalBytes === null ? '' : ` of ${formatSize(cut.totalBytes)}`
  return (
    `Stopped at ${formatSize(cut.inputBytes)}${of}: dsh-lens keeps at most ${formatSize(cut.budgetBytes)} of decoded log ` +
    `in the browser; the first ${formatCount(cut.events)} events are shown.`
  )
}

export function SizeBudgetBanner() {
  const summary = useLensStore(selectSummary)
  const cut = summary?.sizeBudget ?? null
  if (summary === null || cut === null) return null
  return (
    <div
      role="status"
      data-testid="size-budget"
      data-kept-bytes={cut.keptBytes}
      data-budget-bytes={cut.budgetBytes}
      data-events={cut.events}
      className="border-b border-warn bg-warn-soft px-3 py-1.5 text-sm"
    >
      <p>
        {sizeBudgetSentence(cut)} Use the CLI (
        <code className="font-mono">
          npx dsh-lens check <VisibleText text={summary.name} />
        </code>
        ) for the whole file.
      </p>
    </div>
  )
}
