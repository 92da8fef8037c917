/**
 * Whether and when the model was sent a secret, said in words with links (seen-words.ts): a step opens its request,
 * a span moves the cursor to its first event. `data-seen-ranges` and `data-seen-steps` hold the spans as
 * `secrets --json` gives them.
 */

import type { SpanSteps } from '../../core/index.ts'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { seenRanges, seenSteps, seenText, seenWords, type SeenPart } from './seen-words.ts'

const partText = (part: SeenPart): string => seenText([part])

const LINK = 'font-mono tabular-nums text-accent underline decoration-dotted hover:bg-accent-soft'

export function SeenByModel({
  label,
  index,
  seen,
  className,
  links = true,
}: {
  label: string
  index: number
  seen: readonly SpanSteps[]
  className?: string
  /** Steps and spans as links (off where a dialog covers what they would open). */
  links?: boolean
}) {
  const store = useLensStoreApi()
  return (
    <p className={className} data-testid="secret-seen" data-seen-ranges={seenRanges(seen)} data-seen-steps={seenSteps(seen)}>
      {seenWords(label, index, seen).map((part, k) =>
        part.kind === 'text' || !links ? (
          <span key={k}>{part.kind === 'text' ? part.text : partText(part)}</span>
        ) : part.kind === 'step' ? (
          <button
            key={k}
            type="button"
            className={LINK}
            title="open this step's request"
            onClick={() => store.getState().openRequest({ turn: part.step.turn, step: part.step.step })}
          >
            {part.step.turn}.{part.step.step}
          </button>
        ) : (
          <button
            key={k}
            type="button"
            className={LINK}
            title="move the cursor to where it entered the model surface"
            onClick={() => store.getState().setCursor(part.span.from)}
          >
            #{part.span.fromSeq}–#{part.span.toSeq}
          </button>
        ),
      )}
    </p>
  )
}
