/** Step picker for the Request view: previous / next step and a list of every step (`step-list`); picking pins the step. */

import type { StepListEntry } from '../../../core/index.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { BUTTON } from '../../shared/button-class.ts'

/** A step's line in the list: its number, request point and size, and the provider rules its request breaks. */
export function stepLabel(s: StepListEntry): string {
  const rejected = s.rejected.length > 0
  return `${rejected ? '⚠ ' : ''}${s.turn}.${s.step}  #${s.atSeq}  ${s.messageCount} msg${rejected ? `  rejected: ${s.rejected.join(', ')}` : ''}`
}

export function StepPicker({ steps, position }: { steps: readonly StepListEntry[]; position: number }) {
  const store = useLensStoreApi()
  const current = position >= 0 && position < steps.length ? steps[position] : undefined
  const pick = (p: number): void => {
    const entry = steps[p]
    if (entry !== undefined) store.getState().openRequest({ turn: entry.turn, step: entry.step })
  }
  return (
    <span className="flex items-center gap-1">
      <button
        type="button"
        className={BUTTON}
        data-testid="request-prev"
        aria-label="Previous step"
        disabled={position <= 0 || steps.length === 0}
        onClick={() => pick(position - 1)}
      >
        ◀
      </button>
      {/* Closed, the list shows as much of the step's line as its width holds: the whole line is its tooltip (the
          open list shows every line whole). */}
      <select
        aria-label="Step"
        data-testid="request-step-select"
        className={`max-w-56 rounded border bg-canvas px-1 py-0.5 font-mono text-xs ${
          current !== undefined && current.rejected.length > 0 ? 'border-danger text-danger' : 'border-line'
        }`}
        title={current === undefined ? undefined : stepLabel(current)}
        value={current === undefined ? '' : String(position)}
        onChange={(event) => pick(Number(event.currentTarget.value))}
      >
        {current === undefined ? <option value="">step…</option> : null}
        {steps.map((s, p) => (
          <option
            key={p}
            value={p}
            data-rejected={s.rejected.length > 0 ? 'true' : undefined}
            data-step={`${s.turn}.${s.step}`}
            title={stepLabel(s)}
          >
            {stepLabel(s)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className={BUTTON}
        data-testid="request-next"
        aria-label="Next step"
        disabled={position < 0 || position >= steps.length - 1}
        onClick={() => pick(position + 1)}
      >
        ▶
      </button>
    </span>
  )
}
