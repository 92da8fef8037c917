/**
 * What changed in a message (issue 31 §2): the text difference between the first message of this request that
 * differs from the one at the same position in the previous step's request (a pruned tool result, a summary in place
 * of a range) and that earlier message, computed in the worker (`request-message-diff`, jsdiff). Deletions are marked
 * − and struck, insertions + and highlighted, long unchanged runs collapsed.
 * `[data-testid=request-message-diff]` with `data-seq` (the new message), `data-previous-seq` and `data-index`.
 */

import type { MessageDiffPart } from '../../../protocol/step-request.ts'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { formatCount } from '../../shared/format-count.ts'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'
import { SeqButton } from './SeqButton.tsx'

const prefixed = (text: string, sign: string): string =>
  text
    .replace(/\n$/u, '')
    .split('\n')
    .map((line) => `${sign} ${line}`)
    .join('\n') + '\n'

function Part({ part }: { part: MessageDiffPart }) {
  const more = part.cut > 0 ? `… (${formatCount(part.cut)} more characters)\n` : ''
  switch (part.kind) {
    case 'skipped':
      return (
        <span className="block text-muted" data-kind="skipped">
          ⋯ {formatCount(part.lines)} unchanged line{part.lines === 1 ? '' : 's'} ⋯{'\n'}
        </span>
      )
    case 'removed':
      return (
        <del className="block bg-danger-soft text-danger" data-kind="removed">
          <VisibleText text={prefixed(part.text, '−') + more} />
        </del>
      )
    case 'added':
      return (
        <ins className="block bg-accent-soft text-ink no-underline" data-kind="added">
          <VisibleText text={prefixed(part.text, '+') + more} />
        </ins>
      )
    default:
      return (
        <span className="block text-muted" data-kind="same">
          <VisibleText text={prefixed(part.text, ' ') + more} />
        </span>
      )
  }
}

export function RequestMessageDiff({ step, onSeq }: { step: { turn: number; step: number }; onSeq: (seq: number) => void }) {
  const answer = useWorkerAnswer(`${step.turn}.${step.step}`, (ask) =>
    ask('request-message-diff', { turn: step.turn, step: step.step }),
  )
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
        <span className="text-muted">
          {' '}
          · <span className="text-danger">−{formatCount(answer.removedLines)}</span> /{' '}
          <span className="text-ink">+{formatCount(answer.addedLines)}</span> lines · {formatCount(answer.beforeChars)} →{' '}
          {formatCount(answer.afterChars)} characters{answer.clipped ? ' (the start diffed)' : ''}
        </span>
      </p>
      {answer.parts === null ? (
        <p className="text-muted">The two texts differ too much to show their difference here.</p>
      ) : (
        <pre
          tabIndex={0}
          aria-label="Line difference: − removed, + added"
          className="mt-0.5 max-h-32 overflow-auto whitespace-pre-wrap break-words rounded border border-line bg-canvas p-1 font-mono text-[11px]"
        >
          {answer.parts.map((part, k) => (
            <Part key={k} part={part} />
          ))}
        </pre>
      )}
    </div>
  )
}
