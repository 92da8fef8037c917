/**
 * "When did the model see it", in words with links (visibility-words.ts): a span's link moves the cursor to its
 * first event, a step's link opens the Request view on that step. `data-ranges` holds the spans' seq ranges.
 */

import type { SpanSteps, StepMark } from '../../core/index.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { rangesAttribute, visibilityWords } from './visibility-words.ts'

const LINK = 'font-mono tabular-nums text-accent underline decoration-dotted hover:bg-accent-soft'

export function VisibilityWords({
  spans,
  testId,
  className,
}: {
  spans: readonly SpanSteps[]
  testId: string
  className?: string
}) {
  const store = useLensStoreApi()
  const cursor = useLensStore((s) => s.cursor)
  const parts = visibilityWords(spans, cursor)
  const openStep = (step: StepMark): void => store.getState().openRequest({ turn: step.turn, step: step.step })
  return (
    <p className={className} data-testid={testId} data-ranges={rangesAttribute(spans)}>
      {parts.map((part, k) =>
        part.kind === 'text' ? (
          <span key={k}>{part.text}</span>
        ) : part.kind === 'span' ? (
          <button
            key={k}
            type="button"
            className={LINK}
            data-testid="visible-span"
            data-from={part.span.fromSeq}
            data-to={part.span.toSeq}
            title="move the cursor to where it entered the model surface"
            onClick={() => store.getState().setCursor(part.span.from)}
          >
            #{part.span.fromSeq}–#{part.span.toSeq}
          </button>
        ) : (
          <button
            key={k}
            type="button"
            className={LINK}
            data-testid="visible-step"
            data-step={`${part.step.turn}.${part.step.step}`}
            title="open this step's request"
            onClick={() => openStep(part.step)}
          >
            {part.step.turn}.{part.step.step}
          </button>
        ),
      )}
    </p>
  )
}
