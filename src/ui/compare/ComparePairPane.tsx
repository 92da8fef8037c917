/**
 * The picked pair: what differs in words (the request diff: where the requests part, what one holds and the other not,
 * the header fields; for equal requests, where the answers part), the line diff of the first message that differs,
 * what B spent more or less, both requests side by side, and the way back to either run at this step (the run opened
 * with the cursor at the step's request point and the Request view on the step).
 *
 * Contract: `[data-testid=compare-pair-detail]` with `data-index`, `data-same`; `[data-testid=compare-request-diff]`
 * with `data-first-difference`; `[data-testid=compare-message-diff]` with `data-index`, `data-seq-a`, `data-seq-b`,
 * `data-in` (request | output); `[data-testid=compare-open-a]` / `-b` with `data-seq`.
 */

import type { MessagePairDiff, RequestComparison } from '../../core/index.ts'
import type { CompareOverview, ComparePair } from '../../protocol/compare.ts'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { CompareView } from '../../store/slices/compare-slice.ts'
import { DiffSize, DiffText } from '../panes/request/DiffPart.tsx'
import { formatCount } from '../shared/format-count.ts'
import { PaneFrame } from '../shared/PaneFrame.tsx'
import { useWorkerAnswer } from '../shared/use-worker-answer.ts'
import { CompareRequestColumn } from './CompareRequestColumn.tsx'
import { deltaText, KIND_WORDS, stepText } from './compare-words.ts'
import { BUTTON as PLAIN_BUTTON } from '../shared/button-class.ts'

const BUTTON = `whitespace-nowrap ${PLAIN_BUTTON}`

const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`

/** The request diff in words, A read as the "before". */
function requestWords(diff: RequestComparison): string[] {
  const out: string[] = []
  if (diff.firstDifference === null) {
    const output = diff.output
    out.push('The same request')
    if (output !== null && output.firstDifference !== null)
      out.push(`the answers part at output ${output.firstDifference} of ${Math.max(output.a.length, output.b.length)}`)
    else out.push('and the same answer')
    return out
  }
  out.push(diff.firstDifference === 0 ? 'The requests part at the start' : `The requests part at message ${diff.firstDifference}`)
  if (diff.headerChanged.length > 0) out.push(`header: ${diff.headerChanged.join(', ')}`)
  if (diff.appended.length > 0) out.push(`B has ${plural(diff.appended.length, 'message')} A has not`)
  if (diff.removed.length > 0) out.push(`A has ${plural(diff.removed.length, 'message')} B has not`)
  for (const r of diff.replaced)
    out.push(`A's ${plural(r.a.length, 'message')} stand where B has ${plural(r.b.length, 'message')}`)
  return out
}

function MessageDiff({ diff, inOutput }: { diff: MessagePairDiff; inOutput: boolean }) {
  return (
    <div
      role="group"
      aria-label="Line difference of the first message that differs"
      data-testid="compare-message-diff"
      data-index={diff.index}
      data-seq-a={diff.aSeq}
      data-seq-b={diff.bSeq}
      data-in={inOutput ? 'output' : 'request'}
      className="border-b border-line px-3 py-1 text-xs"
    >
      <p>
        <span className="font-semibold">
          {inOutput ? `output ${diff.index}` : `message ${diff.index}`}: A #{diff.aSeq} → B #{diff.bSeq}
        </span>
        <span className="text-muted">
          <DiffSize diff={diff} />
        </span>
      </p>
      <DiffText diff={diff} label="Line difference: − only in A, + only in B" heightClass="max-h-40" />
    </div>
  )
}

function Facts({ answer }: { answer: ComparePair }) {
  const { pair, requestDiff } = answer
  const d = pair.delta
  const words =
    requestDiff === null
      ? [pair.a === null ? 'Only B has this step: A stopped before it' : 'Only A has this step: B stopped before it']
      : requestWords(requestDiff)
  const textDiff = requestDiff?.firstMessage ?? requestDiff?.output?.firstMessage ?? null
  return (
    <>
      <div
        className="flex flex-col gap-0.5 border-b border-line px-3 py-1 text-xs"
        data-testid="compare-request-diff"
        data-first-difference={requestDiff?.firstDifference ?? ''}
      >
        <p>{words.join(' · ')}</p>
        <p className="text-muted tabular-nums" title="B − A, for these two steps">
          B − A: input {deltaText(d.inputTokens, 'count')} · output {deltaText(d.outputTokens, 'count')} · cache read{' '}
          {deltaText(d.cacheReadTokens, 'count')} tokens · model {deltaText(d.modelMs, 'ms')} · tools {deltaText(d.toolMs, 'ms')}{' '}
          · wall {deltaText(d.wallMs, 'ms')}
          {d.cost === undefined ? '' : ` · cost ${deltaText(d.cost, 'cost')}`}
        </p>
      </div>
      {textDiff === null ? null : <MessageDiff diff={textDiff} inOutput={requestDiff?.firstMessage === null} />}
    </>
  )
}

export function ComparePairPane({ compare, overview }: { compare: CompareView; overview: CompareOverview }) {
  const store = useLensStoreApi()
  const index = compare.picked
  const answer = useWorkerAnswer(index === null ? null : `compare:${compare.id}:pair:${index}`, (ask) =>
    ask('compare-pair', { index: index as number }),
  )
  const shown = answer !== undefined && answer !== null && answer.index === index ? answer : null
  const pair = shown?.pair ?? null
  const open = (side: 'a' | 'b'): void => {
    const step = pair?.[side]
    if (step !== null && step !== undefined) store.getState().openCompareRun(side, step)
  }
  const firstDifference = shown?.requestDiff?.firstDifference ?? null
  return (
    <PaneFrame
      title="Pair"
      testId="compare-pair-detail"
      data-index={index ?? ''}
      data-same={pair === null ? '' : pair.same}
      lead={
        pair === null ? null : (
          <span className="flex items-center gap-1.5 text-xs">
            <span className="font-mono">
              A {stepText(pair.a)} ↔ B {stepText(pair.b)}
            </span>
            {pair.same ? <span className="text-muted">· same</span> : null}
            {pair.kinds.map((kind) => (
              <span key={kind} className="rounded border border-danger px-1 text-danger" title={KIND_WORDS[kind].title}>
                {KIND_WORDS[kind].label}
              </span>
            ))}
          </span>
        )
      }
      tools={
        pair === null ? null : (
          <>
            {(['a', 'b'] as const).map((side) => {
              const step = pair[side]
              return step === null ? null : (
                <button
                  key={side}
                  type="button"
                  className={BUTTON}
                  data-testid={`compare-open-${side}`}
                  data-seq={step.atSeq}
                  title={`Open run ${side.toUpperCase()} with the cursor at this step's request point (#${step.atSeq})`}
                  onClick={() => open(side)}
                >
                  Open {side.toUpperCase()} at {stepText(step)}
                </button>
              )
            })}
          </>
        )
      }
      wrap
      className="min-h-0 flex-1"
    >
      {index === null ? (
        <p className="p-3 text-muted">{overview.pairCount === 0 ? 'No steps to compare.' : 'Pick a pair on the left.'}</p>
      ) : shown === null ? (
        <p className="p-3 text-muted" role="status">
          Comparing the pair…
        </p>
      ) : (
        <>
          <Facts answer={shown} />
          <div className="flex min-h-0 flex-1 divide-x divide-line">
            <CompareRequestColumn
              side="a"
              request={shown.a}
              firstDifference={firstDifference}
              pairKey={shown.index}
              missing="Run A has no step here: it stopped before."
            />
            <CompareRequestColumn
              side="b"
              request={shown.b}
              firstDifference={firstDifference}
              pairKey={shown.index}
              missing="Run B has no step here: it stopped before."
            />
          </div>
        </>
      )}
    </PaneFrame>
  )
}
