/**
 * What a compaction summary does not mention (issue 31 §3; the core's `compactionsForgot`): the files, open todos,
 * goal, last request and unanswered calls live when it was written that neither its text nor a message kept on the
 * surface names. A heuristic, and it says so. Each item links to where it was last said.
 * `[data-testid=summary-forgot]` with `data-count` (items listed); one `[data-testid=forgot-item]` per item
 * (`data-kind`, `data-seq`).
 */

import type { CompactionForgot } from '../../../core/index.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { SeqBadge } from '../../shared/SeqBadge.tsx'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'
import { formatCount } from '../../shared/format-count.ts'

interface Item {
  readonly kind: 'file' | 'todo' | 'goal' | 'request' | 'call'
  readonly label: string
  readonly text: string
  readonly seq: number
}

function itemsOf(c: CompactionForgot): Item[] {
  const f = c.forgot
  return [
    ...f.files.map((x) => ({ kind: 'file' as const, label: 'file', text: x.path, seq: x.seq })),
    ...f.todos.map((x) => ({
      kind: 'todo' as const,
      label: `todo (${x.status.replaceAll('_', ' ')})`,
      text: x.content,
      seq: x.seq,
    })),
    ...(f.goal === null
      ? []
      : [{ kind: 'goal' as const, label: `goal (${f.goal.phase})`, text: f.goal.objective, seq: f.goal.seq }]),
    ...(f.lastUserRequest === null
      ? []
      : [{ kind: 'request' as const, label: 'last request', text: f.lastUserRequest.text, seq: f.lastUserRequest.seq }]),
    ...f.unansweredCalls.map((x) => ({
      kind: 'call' as const,
      label: 'call, no result yet',
      text: `${x.name} ${x.id}`,
      seq: x.seq,
    })),
  ]
}

export function SummaryForgot({ seq }: { seq: number }) {
  const store = useLensStoreApi()
  const answer = useWorkerAnswer(`forgot:${seq}`, (ask) => ask('summary-forgot', { seq }))
  if (answer === undefined) return <p className="text-xs text-muted">Checking what the summary mentions…</p>
  if (answer === null) return null
  const items = itemsOf(answer)
  const go = (to: number) => void store.getState().selectSeq(to, 'inspector', true)
  return (
    <div
      role="group"
      aria-label="Not mentioned in the summary"
      data-testid="summary-forgot"
      data-count={items.length}
      className={`rounded border px-2 py-1 text-xs ${items.length > 0 ? 'border-warn bg-warn-soft' : 'border-line'}`}
    >
      <h3 className="font-semibold">
        {items.length > 0
          ? `${formatCount(items.length)} fact${items.length === 1 ? '' : 's'} live at this point not mentioned in the summary`
          : 'The summary mentions every file, todo, goal, request and pending call live at this point'}
      </h3>
      <p className="text-muted">
        ~{formatCount(answer.summaryTokens)} tokens stand for ~{formatCount(answer.removedTokens)} removed. A heuristic: a fact
        counts as mentioned when its text (a path, or its file name) is in the summary or in a message kept after it; a summary
        can paraphrase what it carries.
      </p>
      {items.length > 0 ? (
        <ul className="mt-1 space-y-0.5">
          {items.map((item, k) => (
            <li key={k} data-testid="forgot-item" data-kind={item.kind} data-seq={item.seq} className="flex gap-1.5">
              <span className="shrink-0 text-muted">{item.label}</span>
              <span className="min-w-0 break-words font-mono">
                <VisibleText text={item.text} />
              </span>
              <span className="shrink-0">
                <SeqBadge seq={item.seq} onClick={() => go(item.seq)} label="where it was last said" />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
