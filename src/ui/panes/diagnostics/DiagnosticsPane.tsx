/**
 * Every decoder, load and fold defect with line, seq and the harness's message; clicking one moves the cursor there.
 * A provider-rule warning (a broken tool pairing, a lone surrogate) also opens the Request view on the first step
 * whose request carries the broken rule: the request a provider refuses, not the event where the break began.
 */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { useCallback } from 'react'
import type { Diagnostic } from '../../../core/index.ts'
import { REJECTION_CODES, type RejectionCode } from '../../../core/request/request-rejections.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectSummary, selectLoadState } from '../../../store/selectors.ts'
import { VirtualList } from '../../shared/VirtualList.tsx'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { useState } from 'react'
import { formatCount } from '../../shared/format-count.ts'

const ROW_ESTIMATE_PX = 40
const keyOf = (i: number): number => i

export function DiagnosticsPane() {
  const store = useLensStoreApi()
  const loadState = useLensStore(selectLoadState)
  const summary = useLensStore(selectSummary)
  const [active, setActive] = useState<number | null>(null)
  const list = summary?.diagnostics ?? []
  const total = summary?.diagnosticCount ?? 0
  const onRange = useCallback(() => {}, [])
  const pick = (i: number): void => {
    setActive(i)
    const d = list[i]
    if (d === undefined) return
    const state = store.getState()
    if (typeof d.index === 'number') {
      state.setCursor(d.index)
      state.select(d.index, 'diagnostics')
    } else if (d.seq !== null) void state.selectSeq(d.seq, 'diagnostics', true)
    const code = d.code as RejectionCode
    if (d.seq !== null && REJECTION_CODES.includes(code)) void state.openRejectingStep(code, d.seq)
  }
  return (
    <PaneFrame
      title="Diagnostics"
      testId="diagnostics"
      count={total}
      countTone={list.some((d) => d.severity === 'error') ? 'danger' : total > 0 ? 'warn' : 'muted'}
      status={total > list.length ? <span className="text-xs text-muted">first {formatCount(list.length)} listed</span> : null}
      className="flex-1"
    >
      <VirtualList
        count={list.length}
        label="Diagnostics"
        idPrefix="diagnostic"
        estimateSizePx={ROW_ESTIMATE_PX}
        itemKey={keyOf}
        itemSeq={(i) => list[i]?.seq ?? undefined}
        itemClassName={(i) => (i === active ? 'bg-accent-soft' : 'hover:bg-raised')}
        renderItem={(i) => <DiagnosticRow d={list[i]} />}
        activeIndex={active}
        onActivate={pick}
        revealIndex={null}
        onRange={onRange}
        emptyText={
          summary === null
            ? loadState === 'loading'
              ? 'Loading…'
              : 'No log loaded.'
            : 'No defects: the harness accepts this log.'
        }
      />
    </PaneFrame>
  )
}

function DiagnosticRow({ d }: { d: Diagnostic | undefined }) {
  if (d === undefined) return null
  return (
    <div
      className="px-2 py-1 text-xs"
      data-testid="diagnostic"
      data-code={d.code}
      data-severity={d.severity}
      data-seq={d.seq ?? ''}
    >
      <div className="flex gap-2">
        <span className={d.severity === 'error' ? 'font-semibold text-danger' : 'font-semibold text-warn'}>{d.severity}</span>
        <span className="font-mono text-muted">{d.code}</span>
        <span className="font-mono text-muted">line {d.line ?? '—'}</span>
        <span className="font-mono text-muted">seq {d.seq ?? '—'}</span>
      </div>
      <p className="break-words">
        <VisibleText text={d.message} />
      </p>
      {d.detail !== undefined ? (
        <p className="break-words text-muted">
          <VisibleText text={d.detail} />
        </p>
      ) : null}
    </div>
  )
}
