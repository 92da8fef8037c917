/**
 * What the model had streamed at the cursor, under the transcript: while the cursor is inside a step's stream (after
 * its first output, before its assistant message), the text, reasoning and tool arguments so far, as they grew. The
 * replay shows the answer being written; scrubbing through a stream shows it too. Rendered as text only. It lies over
 * the bottom of the list rather than taking room from it: appearing and going (every few frames of a drag across a
 * large log) never resizes the list and so never makes it measure its rows again.
 */

import type { StreamPreview } from '../../../protocol/time-lanes.ts'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { selectCursor } from '../../../store/selectors.ts'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'
import { VisibleText } from '../../shared/VisibleText.tsx'

/** The stream at the cursor: asked at each cursor; the latest answer shows until the next (no flicker while it plays). */
function useStreamAt(cursor: number): StreamPreview | null {
  const length = useLensStore((s) => s.summary?.length ?? 0)
  const key = cursor < 0 || length === 0 ? null : `stream:${cursor}`
  const preview = useWorkerAnswer(key, (ask) => ask('stream-so-far', { index: cursor }), { latest: true })
  return key === null ? null : (preview ?? null)
}

export function StreamingPreview() {
  const cursor = useLensStore(selectCursor)
  const preview = useStreamAt(cursor)
  if (preview === null) return null
  const chars = preview.text.length + preview.cutText
  return (
    <div
      data-testid="transcript-streaming"
      data-step={`${preview.turn}.${preview.step}`}
      data-deltas={preview.deltas}
      data-chars={chars}
      aria-live="off"
      className="absolute inset-x-0 bottom-0 z-10 max-h-32 overflow-y-auto border-t border-line bg-raised px-2 py-1.5 text-sm shadow-md"
    >
      <div className="mb-0.5 text-xs">
        <span className="font-semibold text-assistant">assistant</span>{' '}
        <span className="text-muted">
          streaming, step {preview.turn}.{preview.step}: {preview.deltas} delta{preview.deltas === 1 ? '' : 's'} so far
        </span>
      </div>
      {preview.reasoning !== '' ? (
        <p className="whitespace-pre-wrap text-xs italic text-muted">
          {preview.cutReasoning > 0 ? '… ' : ''}
          <VisibleText text={preview.reasoning} />
        </p>
      ) : null}
      {preview.text !== '' ? (
        <p className="whitespace-pre-wrap">
          {preview.cutText > 0 ? '… ' : ''}
          <VisibleText text={preview.text} />
        </p>
      ) : null}
      {preview.toolCalls.map((call, k) => (
        <p key={k} className="whitespace-pre-wrap font-mono text-xs text-tool">
          {call.name ?? 'tool'}(<VisibleText text={call.args} />)
        </p>
      ))}
    </div>
  )
}
