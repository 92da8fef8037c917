/**
 * What changed in a message (issue 31 §2): the text difference between the first message of this request that
 * differs from the one at the same position in the previous step's request (a pruned tool result, a summary in place
 * of a range) and that earlier message, computed in the worker (`request-message-diff`, jsdiff; asked with the step's
 * request, use-request-snapshot.ts). Deletions are marked − and struck, insertions + and highlighted, long unchanged
 * runs collapsed.
 * `[data-testid=request-message-diff]` with `data-seq` (the new message), `data-previous-seq` and `data-index`.
 */

import { formatCount } from '../../shared/format-count.ts'
import { DiffSize, DiffText } from './DiffPart.tsx'
import { SeqButton } from './SeqButton.tsx'
import type { MessageDiffAnswer } from '../../../protocol/step-request.ts'

export function RequestMessageDiff({
  answer,
  onSeq,
}: {
  /** null: no message changed; undefined: still being computed. */
  answer: MessageDiffAnswer | null | undefined
  onSeq: (seq: number) => void
}) {
  if (answer === undefined || answer === null) return null
  return (
    <div
      role="group"
      aria-label="What changed in a message"
      data-testid="request-message-diff"
      data-seq={answer.seq}
      data-previous-seq={answer.previousSeq}
      data-index={answer.index}
      className="border-b border-line px-2 py-1 text-xs"
    >
      <p>
        <span className="font-semibold">message {answer.index} changed</span>
        <span className="text-muted"> since {answer.previousStep}: </span>
        <SeqButton seq={answer.previousSeq} onSeq={onSeq} title="the message there in the previous request" />
        <span className="text-muted"> → </span>
        <SeqButton seq={answer.seq} onSeq={onSeq} title="the message there now" />
        {/* One line at a laptop's column width: the character counts are the line counts' tooltip. */}
        <span
          className="text-muted"
          title={`${formatCount(answer.beforeChars)} → ${formatCount(answer.afterChars)} characters`}
          data-testid="request-message-diff-size"
        >
          <DiffSize diff={answer} />
        </span>
      </p>
      <DiffText diff={answer} label="Line difference: − removed, + added" heightClass="max-h-32" />
    </div>
  )
}
