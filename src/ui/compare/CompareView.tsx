/**
 * The Compare view (issue 38): two runs side by side, at the surface. First the sentence that says where they parted,
 * the first divergence marked (and its pair opened on arrival), then the aligned steps on the left with the totals
 * under them, and the picked pair on the right: both requests side by side, message by message, with the text diff of
 * the first message that differs and a way back to either run at that step. Everything comes from the worker's
 * comparison (view/compare-query.ts), asked for once both runs are read.
 *
 * Contract (docs/viewer-contract.md): `[data-testid=compare-view]` with `data-state` (loading | comparing | ready |
 * error) and `data-pairs`; `[data-testid=compare-parted]`; `[data-testid=first-divergence]`; `[data-testid=
 * compare-steps]` and its `compare-pair` rows; `[data-testid=compare-pair-detail]`; `[data-testid=compare-totals]`.
 */

import { useLensStore } from '../../store/lens-store-context.tsx'
import { runAReady, type CompareView as View } from '../../store/slices/compare-slice.ts'
import { CompareHeader } from './CompareHeader.tsx'
import { ComparePairPane } from './ComparePairPane.tsx'
import { CompareProgress } from './CompareProgress.tsx'
import { CompareSteps } from './CompareSteps.tsx'
import { CompareTotalsTable } from './CompareTotalsTable.tsx'

export type CompareState = 'loading' | 'comparing' | 'ready' | 'error'

function stateOf(compare: View, aReady: boolean): CompareState {
  if (compare.error !== null) return 'error'
  if (compare.overview !== null) return 'ready'
  return aReady && compare.bLoad.state === 'ready' ? 'comparing' : 'loading'
}

export function CompareView() {
  const compare = useLensStore((s) => s.compare)
  const aReady = useLensStore(runAReady)
  if (compare === null) return null
  const state = stateOf(compare, aReady)
  const overview = compare.overview
  return (
    <main
      data-testid="compare-view"
      data-state={state}
      data-pairs={overview?.pairCount ?? ''}
      aria-label="Compare two runs"
      className="flex min-h-0 flex-1 flex-col bg-canvas"
    >
      <CompareHeader compare={compare} state={state} />
      {overview === null ? (
        <CompareProgress compare={compare} state={state} />
      ) : (
        <div className="flex min-h-0 flex-1 border-t border-line">
          <div className="flex w-[36%] min-w-80 flex-col border-r border-line">
            <div className="flex min-h-0 flex-[3_1_0%] flex-col">
              <CompareSteps compare={compare} overview={overview} />
            </div>
            <div className="flex min-h-0 flex-[2_1_0%] flex-col border-t border-line">
              <CompareTotalsTable id={compare.id} />
            </div>
          </div>
          <div className="flex min-w-0 flex-1 flex-col">
            <ComparePairPane compare={compare} overview={overview} />
          </div>
        </div>
      )}
    </main>
  )
}
