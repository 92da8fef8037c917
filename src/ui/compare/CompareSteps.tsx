/**
 * The aligned steps (virtualised: a long run has thousands): one row per pair, A's step beside B's, whether they are
 * the same or what differs, and what B spent more or less (tokens, model time). A step only one run has shows an en
 * dash on the other side. Rows are fetched as they come into view; a click or ↑↓ picks the pair shown on the right.
 *
 * Contract: `[data-testid=compare-steps]` (`data-count`), rows `[data-testid=compare-pair]` with `data-index`,
 * `data-same`, `data-kinds` (the kinds joined by commas), `data-step-a`, `data-step-b` (`T.S`, or empty), `data-first`
 * on the first divergence's row.
 */

import { useCallback } from 'react'
import type { ComparedPair } from '../../core/index.ts'
import type { CompareOverview } from '../../protocol/compare.ts'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { CompareView } from '../../store/slices/compare-slice.ts'
import { PaneFrame } from '../shared/PaneFrame.tsx'
import { VirtualList } from '../shared/VirtualList.tsx'
import { KIND_WORDS, pairDeltaText, stepText } from './compare-words.ts'
import { COMPARE_OVERSCAN_ROWS } from './compare-lists.ts'

const ROW_ESTIMATE_PX = 30

function PairRow({ index, pair, first }: { index: number; pair: ComparedPair | undefined; first: boolean }) {
  if (pair === undefined)
    return (
      <div className="px-2 py-1 text-xs text-muted" data-testid="compare-pair" data-index={index} data-loading="true">
        {index + 1} …
      </div>
    )
  return (
    <div
      className="grid grid-cols-[2.5rem_3.25rem_3.25rem_minmax(0,1fr)_auto] items-center gap-x-2 px-2 py-1 text-xs"
      data-testid="compare-pair"
      data-index={index}
      data-same={pair.same}
      data-kinds={pair.kinds.join(',')}
      data-step-a={pair.a === null ? '' : stepText(pair.a)}
      data-step-b={pair.b === null ? '' : stepText(pair.b)}
      data-first={first ? 'true' : undefined}
    >
      <span className="text-right font-mono tabular-nums text-muted">{index + 1}</span>
      <span className="font-mono tabular-nums" title="run A's step (turn.step)">
        <span className="text-muted">A </span>
        {stepText(pair.a)}
      </span>
      <span className="font-mono tabular-nums" title="run B's step (turn.step)">
        <span className="text-muted">B </span>
        {stepText(pair.b)}
      </span>
      <span className="flex min-w-0 flex-wrap items-center gap-1">
        {first ? <span className="font-semibold text-danger">▶ first divergence</span> : null}
        {pair.same ? (
          <span className="text-muted">same</span>
        ) : (
          pair.kinds.map((kind) => (
            <span key={kind} className="rounded border border-danger px-1 text-danger" title={KIND_WORDS[kind].title}>
              {KIND_WORDS[kind].label}
            </span>
          ))
        )}
      </span>
      <span className="font-mono text-[11px] tabular-nums text-muted" title="B − A: input and output tokens, model time">
        {pairDeltaText(pair.delta)}
      </span>
    </div>
  )
}

export function CompareSteps({ compare, overview }: { compare: CompareView; overview: CompareOverview }) {
  const store = useLensStoreApi()
  const firstIndex = overview.first?.index ?? null
  const onRange = useCallback((from: number, to: number) => store.getState().fetchCompareRows(from, to), [store])
  const itemKey = useCallback((i: number) => i, [])
  const noSeq = useCallback(() => undefined, [])
  const rows = compare.rows
  const same = overview.first === null
  return (
    <PaneFrame
      title="Steps"
      testId="compare-steps"
      count={overview.pairCount}
      countUnit={overview.pairCount === 1 ? 'pair' : 'pairs'}
      status={
        overview.fork === null ? null : (
          <span className="text-xs text-muted" title={`the first ${overview.fork.seedLength} events are shared, compared once`}>
            · after a {formatSeed(overview.fork.seedLength)} fork seed
          </span>
        )
      }
      className="min-h-0 flex-1"
    >
      <VirtualList
        count={overview.pairCount}
        label="Aligned steps of A and B"
        idPrefix="compare-step"
        estimateSizePx={ROW_ESTIMATE_PX}
        overscanRows={COMPARE_OVERSCAN_ROWS}
        itemKey={itemKey}
        itemSeq={noSeq}
        itemClassName={(i) => {
          const pair = rows.get(i)
          const mark = pair === undefined || pair.same ? 'border-l-transparent' : 'border-l-danger'
          return `border-l-4 ${mark} ${i === compare.picked ? 'bg-accent-soft' : 'hover:bg-raised'}`
        }}
        renderItem={(i) => <PairRow index={i} pair={rows.get(i)} first={i === firstIndex} />}
        activeIndex={compare.picked}
        onActivate={(i) => store.getState().pickComparePair(i)}
        revealIndex={compare.picked}
        revealToken={compare.id}
        onRange={onRange}
        emptyText={same ? 'Neither run has a step to compare.' : 'No steps.'}
      />
    </PaneFrame>
  )
}

function formatSeed(events: number): string {
  return `${events}-event`
}
