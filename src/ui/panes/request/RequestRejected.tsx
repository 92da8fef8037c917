/**
 * The request a provider would reject (issue 31 §1): each provider rule this step's request breaks (the core's
 * `rejected`, judged on the request's own messages), the messages that break it (index, and seq as a link), and what
 * the provider answers. `[data-testid=request-rejected]` with `data-codes` (the codes, comma-separated); one
 * `[data-testid=request-rejected-rule]` per code (`data-code`).
 */

import { PROVIDER_ANSWERS, REJECTION_CODES, REJECTION_RULES, type Rejection } from '../../../core/request/request-rejections.ts'
import type { StepRequestView } from '../../../protocol/step-request.ts'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { formatCount } from '../../shared/format-count.ts'
import { SeqButton } from './SeqButton.tsx'

/** Instances listed per rule; the rest are counted. */
const SHOWN = 3

export function RequestRejected({ request, onSeq }: { request: StepRequestView; onSeq: (seq: number) => void }) {
  const rejected = request.rejected
  if (rejected.length === 0) return null
  const codes = REJECTION_CODES.filter((code) => rejected.some((r) => r.code === code))
  return (
    <div
      role="group"
      aria-label="Provider rules this request breaks"
      data-testid="request-rejected"
      data-codes={codes.join(',')}
      // Above the facts, never scrolled away with them; long lists scroll inside it (a laptop keeps its messages).
      tabIndex={0}
      className="max-h-[28%] shrink-0 space-y-1 overflow-y-auto border-b border-danger bg-danger-soft px-2 py-1 text-xs"
    >
      <p className="font-semibold text-danger">
        ⚠ A provider would reject this request: it breaks {codes.length === 1 ? 'a rule' : `${codes.length} rules`} that
        OpenAI-compatible APIs check before the model reads anything.
      </p>
      {codes.map((code) => {
        const instances = rejected.filter((r) => r.code === code)
        return (
          <div key={code} data-testid="request-rejected-rule" data-code={code}>
            <p>
              <span className="font-mono font-semibold">{code}</span>: {REJECTION_RULES[code]}
              {instances.length > 1 ? ` (${formatCount(instances.length)} times)` : ''}.
            </p>
            <ul className="ml-3 list-disc pl-3">
              {instances.slice(0, SHOWN).map((r, k) => (
                <Instance key={k} rejection={r} onSeq={onSeq} />
              ))}
              {instances.length > SHOWN ? <li className="text-muted">and {formatCount(instances.length - SHOWN)} more</li> : null}
            </ul>
            <p className="text-muted">The provider: {PROVIDER_ANSWERS[code]}</p>
          </div>
        )
      })}
    </div>
  )
}

function Instance({ rejection, onSeq }: { rejection: Rejection; onSeq: (seq: number) => void }) {
  return (
    <li data-index={rejection.index} data-seq={rejection.seq}>
      message {rejection.index} (<SeqButton seq={rejection.seq} onSeq={onSeq} title="select this message's event" />
      ): <VisibleText text={rejection.message} />
    </li>
  )
}
