/**
 * One run's request of the picked pair, as the Request view lists a request (virtualised rows: position, seq, role,
 * estimated tokens, a preview), each message marked by whether the other run's request holds it: `differs` rows carry
 * a red rule and ≠, and the first position where the two requests part is marked above its row.
 *
 * Contract: `[data-testid=compare-request-a]` / `-b` with `data-step` (`T.S`) and `data-count`; each row's option
 * `data-seq`, and inside it `[data-testid=compare-message]` with `data-mark` (same | differs).
 */

import { useCallback, useMemo, useState } from 'react'
import type { CompareRequest } from '../../protocol/compare.ts'
import { RequestMessageRow } from '../panes/request/RequestMessageRow.tsx'
import { PaneFrame } from '../shared/PaneFrame.tsx'
import { VirtualList } from '../shared/VirtualList.tsx'
import { COMPARE_OVERSCAN_ROWS } from './compare-lists.ts'

const ROW_ESTIMATE_PX = 58

export function CompareRequestColumn({
  side,
  request,
  firstDifference,
  pairKey,
  missing,
}: {
  side: 'a' | 'b'
  request: CompareRequest | null
  /** The first message position where the requests part (null: equal requests, or none). */
  firstDifference: number | null
  /** Changes when another pair is shown (the list scrolls to its first difference again). */
  pairKey: number
  /** What to say when this run has no step here. */
  missing: string
}) {
  const [active, setActive] = useState<number | null>(null)
  const rows = useMemo(() => request?.rows ?? [], [request])
  const itemKey = useCallback((i: number) => rows[i]?.seq ?? i, [rows])
  const onRange = useCallback(() => {}, [])
  const step = request === null ? '' : `${request.request.turn}.${request.request.step}`
  return (
    <PaneFrame
      title={`Run ${side.toUpperCase()}`}
      testId={`compare-request-${side}`}
      data-step={step}
      lead={step === '' ? null : <span className="font-mono text-xs">step {step}</span>}
      count={rows.length}
      countUnit="messages"
      status={
        request === null ? null : (
          <span className="text-xs text-muted">
            built at <span className="font-mono tabular-nums">#{request.request.atSeq}</span>
          </span>
        )
      }
      className="min-h-0 min-w-0 flex-1"
    >
      <VirtualList
        count={rows.length}
        label={`Run ${side.toUpperCase()}'s request messages`}
        idPrefix={`compare-${side}`}
        estimateSizePx={ROW_ESTIMATE_PX}
        overscanRows={COMPARE_OVERSCAN_ROWS}
        itemKey={itemKey}
        itemSeq={(i) => rows[i]?.seq}
        itemClassName={(i) => {
          const differs = request?.marks[i] === 'differs'
          return `border-l-4 ${differs ? 'border-l-danger' : 'border-l-transparent'} ${i === active ? 'bg-accent-soft' : 'hover:bg-raised'}`
        }}
        renderItem={(i) => {
          const row = rows[i]
          if (row === undefined || request === null) return null
          const mark = request.marks[i] ?? 'same'
          return (
            <div data-testid="compare-message" data-mark={mark}>
              {i === firstDifference ? (
                <div className="truncate border-t-2 border-danger bg-danger-soft px-2 py-0.5 text-[11px] font-semibold text-danger">
                  ▼ the requests part here (message {i})
                </div>
              ) : null}
              <RequestMessageRow
                row={row}
                position={i}
                change={mark === 'differs' ? 'differs' : 'kept'}
                firstDifference={false}
                tokensBefore={0}
                rejected={null}
              />
            </div>
          )
        }}
        activeIndex={active}
        onActivate={setActive}
        revealIndex={firstDifference}
        revealToken={pairKey}
        onRange={onRange}
        emptyText={request === null ? missing : 'This request has no messages.'}
      />
    </PaneFrame>
  )
}
