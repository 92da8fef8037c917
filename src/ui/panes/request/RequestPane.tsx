/**
 * The Request view (issue 8 §1): what the harness sent the model at one step — the header in force, the messages
 * in order (virtualized), the logged usage beside the estimate — and the diff with the previous step's request.
 * The step is the one in force at the cursor unless one was picked (see request-slice.ts for the rule); following a
 * link here pins the step shown, so moving the cursor to a compaction does not swap the request away.
 *
 * Contract: `[data-testid=request-pane]` with `data-step="T.S"` and `data-count` (messages in the request); each
 * message row `data-seq`; `[data-testid=request-diff]`; `[data-testid=copy-request]`, `[data-testid=save-request]`;
 * the step's cost and its break's (RequestCost.tsx).
 */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { useCallback, useMemo, useState } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { VirtualList } from '../../shared/VirtualList.tsx'
import { RequestDiffBar } from './RequestDiffBar.tsx'
import { RequestHeaderInfo } from './RequestHeaderInfo.tsx'
import { RequestMessageDiff } from './RequestMessageDiff.tsx'
import { RequestMessageRow, type RowChange } from './RequestMessageRow.tsx'
import { RequestRejected } from './RequestRejected.tsx'
import { StepPicker } from './StepPicker.tsx'
import { copyRequestJson, saveRequestJson } from './request-actions.ts'
import { useStepRequest } from './use-step-request.ts'
import { useRequestSnapshot } from './use-request-snapshot.ts'
import { BreakCost } from './RequestCost.tsx'
import { BUTTON as PLAIN_BUTTON } from '../../shared/button-class.ts'

const ROW_ESTIMATE_PX = 58
const BUTTON = `whitespace-nowrap ${PLAIN_BUTTON}`

const BOUNDARY_TEXT = {
  'first-output': 'before its first provider output',
  'step-end': 'at its end (no provider output)',
  open: 'so far (open, no provider output yet)',
} as const

export function RequestPane() {
  const store = useLensStoreApi()
  const { answer: incoming, error, steps } = useStepRequest()
  // The request with its facts' other answers, shown together (use-request-snapshot.ts).
  const snapshot = useRequestSnapshot(incoming)
  const answer = snapshot?.answer ?? null
  const pin = useLensStore((s) => s.requestPin)
  const loadState = useLensStore((s) => s.loadState)
  const selectedSeq = useLensStore((s) =>
    s.selected === null ? null : s.summary?.seqIsIndex === true ? s.selected : (s.detail?.summary.seq ?? null),
  )
  const [note, setNote] = useState<string | null>(null)
  const request = answer?.request ?? null
  const rows = useMemo(() => answer?.rows ?? [], [answer])
  const step = useMemo(() => (request === null ? null : { turn: request.turn, step: request.step }), [request])
  const stepLabel = step === null ? '' : `${step.turn}.${step.step}`
  const cost = snapshot?.cost

  const changes = useMemo(() => {
    const out = new Map<number, RowChange>()
    if (request === null || request.diff.previous === null) return out
    for (const seq of request.diff.appended) out.set(seq, 'appended')
    for (const r of request.diff.replacedBy) out.set(r.seq, 'replacement')
    return out
  }, [request])
  const first = request?.diff.firstDifference ?? null
  // The break's cost goes on the prefix-cache mark, or in the diff's line when the messages have none (a header change).
  const marked = request !== null && request.diff.previous !== null && first !== null && first < rows.length
  /** Message index -> the provider rules it breaks. */
  const rejectedAt = useMemo(() => {
    const out = new Map<number, string[]>()
    for (const r of request?.rejected ?? []) out.set(r.index, [...(out.get(r.index) ?? []), r.code])
    return out
  }, [request])
  const selectedPosition = useMemo(() => {
    if (selectedSeq === null) return null
    const at = rows.findIndex((r) => r.seq === selectedSeq)
    return at === -1 ? null : at
  }, [rows, selectedSeq])

  /** A link in the view: pin the step shown (so it stays), then move the cursor to the seq and select it. */
  const follow = useCallback(
    (seq: number) => {
      const s = store.getState()
      if (s.requestPin === null && step !== null) s.openRequest(step)
      void s.selectSeq(seq, 'link', true)
    },
    [store, step],
  )
  const itemKey = useCallback((i: number) => rows[i]?.seq ?? i, [rows])
  const onRange = useCallback(() => {}, [])

  const act = (action: typeof copyRequestJson): void => {
    if (step === null) return
    action(store.getState(), step)
      .then(setNote)
      .catch((e: unknown) => setNote(e instanceof Error ? e.message : String(e)))
  }

  return (
    <PaneFrame
      title="Request"
      testId="request-pane"
      data-step={stepLabel}
      data-following={pin === null}
      count={request?.messageCount ?? 0}
      countUnit="messages"
      // The step, prev/next and follow share the header: one row of controls, so a laptop screen keeps the messages.
      lead={
        <>
          <span className="sr-only" data-testid="request-step">
            {stepLabel === '' ? '—' : `step ${stepLabel}`}
          </span>
          <StepPicker steps={steps} position={answer?.position ?? -1} />
        </>
      }
      wrap
      className="h-full"
      tools={
        <button
          type="button"
          className={`${BUTTON} ${pin === null ? 'border-accent text-accent' : ''}`}
          aria-pressed={pin === null}
          data-testid="request-follow"
          title="Show the step whose request is in force at the cursor"
          onClick={() => store.getState().openRequest(null)}
        >
          Follow cursor
        </button>
      }
    >
      {note !== null ? (
        <p role="status" data-testid="request-note" className="truncate border-b border-line px-2 py-0.5 text-xs text-muted">
          {note}
        </p>
      ) : null}
      {error !== null ? <p className="px-2 py-1 text-xs text-danger">{error}</p> : null}
      {request !== null ? <RequestRejected request={request} onSeq={follow} /> : null}
      {request !== null && step !== null ? (
        // The facts above the messages scroll on their own past a share of the pane, a smaller share on a short window:
        // on a laptop screen the message list keeps most of the height, whatever the facts hold. The message diff comes
        // right after the first line, so it is in view without scrolling the facts; on a short window the facts get a
        // little more of the pane when there is a diff (the list still keeps six messages at 1280x800).
        <div
          className="max-h-[18%] shrink-0 overflow-y-auto [@media(max-height:879px)]:has-[[data-testid=request-message-diff]]:max-h-[26%] [@media(min-height:880px)]:max-h-[45%]"
          tabIndex={0}
          aria-label="About this request"
        >
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-line px-2 py-1 text-xs">
            <span
              className="text-muted"
              title={`the request is the surface ${BOUNDARY_TEXT[request.boundary]}; the step starts at #${request.startSeq}`}
            >
              built at
            </span>
            <button
              type="button"
              className="font-mono tabular-nums text-accent hover:underline"
              data-testid="request-at-seq"
              data-seq-link={request.atSeq}
              title="move the cursor to the request point"
              onClick={() => store.getState().selectSeq(request.atSeq, 'link', true)}
            >
              #{request.atSeq}
            </button>
            {request.skippedNodes.length > 0 ? (
              <span className="text-warn" data-testid="request-skipped" data-count={request.skippedNodes.length}>
                · {request.skippedNodes.length} surface node{request.skippedNodes.length === 1 ? '' : 's'} derive no message
              </span>
            ) : (
              <span className="text-muted" data-testid="request-skipped" data-count={0}>
                · no skipped nodes
              </span>
            )}
            {request.deriveErrors.length > 0 ? (
              <span className="text-danger">· {request.deriveErrors.length} derive errors</span>
            ) : null}
            <span className="ml-auto flex gap-1.5">
              <button
                type="button"
                className={BUTTON}
                data-testid="copy-request"
                title="Copy this request as JSON (what lens request --step T.S --json prints)"
                onClick={() => act(copyRequestJson)}
              >
                Copy JSON
              </button>
              <button
                type="button"
                className={BUTTON}
                data-testid="save-request"
                title={`Save this request as request-${stepLabel || 'T.S'}.json`}
                onClick={() => act(saveRequestJson)}
              >
                Save JSON
              </button>
            </span>
          </div>
          <RequestMessageDiff answer={snapshot?.messageDiff} onSeq={follow} />
          <RequestHeaderInfo request={request} timing={answer?.timing ?? null} cost={cost} onSeq={follow} />
          <RequestDiffBar
            request={request}
            headerChange={answer?.headerChange ?? null}
            breakCost={marked ? null : <BreakCost answer={cost} />}
            onSeq={follow}
          />
        </div>
      ) : null}
      <VirtualList
        count={rows.length}
        label="Request messages"
        idPrefix="request"
        estimateSizePx={ROW_ESTIMATE_PX}
        itemKey={itemKey}
        itemSeq={(i) => rows[i]?.seq}
        itemClassName={(i) => {
          // The left rule marks the prefix a provider's cache can reuse (before the first difference).
          const cached = request !== null && request.diff.previous !== null && i < (first ?? rows.length)
          return `border-l-4 ${cached ? 'border-l-accent/60' : 'border-l-transparent'} ${i === selectedPosition ? 'bg-accent-soft' : 'hover:bg-raised'}`
        }}
        renderItem={(i) => {
          const row = rows[i]
          if (row === undefined) return null
          return (
            <RequestMessageRow
              row={row}
              position={i}
              change={changes.get(row.seq) ?? 'kept'}
              firstDifference={i === first && request?.diff.previous !== null}
              tokensBefore={request?.diff.tokensBeforeFirstDifference ?? 0}
              breakCost={i === first && marked ? <BreakCost answer={cost} /> : null}
              rejected={rejectedAt.get(i) ?? null}
            />
          )
        }}
        activeIndex={selectedPosition}
        onActivate={(i) => {
          const seq = rows[i]?.seq
          if (seq !== undefined) void store.getState().selectSeq(seq, 'link', false)
        }}
        revealIndex={first}
        revealToken={answer?.key}
        onRange={onRange}
        emptyText={
          answer === null
            ? loadState === 'loading' || incoming !== null
              ? 'Loading…'
              : 'No step yet: the request view shows a step once one has started.'
            : answer.position === -1
              ? pin !== null
                ? `No step ${pin.turn}.${pin.step} in this log.`
                : 'No step has started at this cursor.'
              : 'This request has no messages.'
        }
      />
    </PaneFrame>
  )
}
