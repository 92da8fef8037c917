/**
 * The header in force for a request (model, provider, reasoning effort; the system prompt and tools collapsed)
 * and the step's logged usage beside the estimated size of the request, and where the step's time went. Values come from the worker's answer as
 * they are; anything from the log is rendered as text.
 */

import type { StepTimingJson } from '../../../core/index.ts'
import type { StepRequestView } from '../../../protocol/step-request.ts'
import type { StepCostAnswer } from '../../../protocol/cost.ts'
import { StepCostLine } from './RequestCost.tsx'
import { RequestTiming } from './RequestTiming.tsx'
import { SeqButton } from './SeqButton.tsx'
import { formatCount } from '../../shared/format-count.ts'

const USAGE_FIELDS = [
  ['inputTokens', 'input'],
  ['outputTokens', 'output'],
  ['cacheReadTokens', 'cache read'],
  ['cacheWriteTokens', 'cache write'],
  ['reasoningTokens', 'reasoning'],
] as const

const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '—' : (JSON.stringify(v) ?? String(v)))
const num = (v: unknown): string => (typeof v === 'number' ? formatCount(v) : '—')

function toolName(tool: unknown, i: number): string {
  const t = record(tool)
  return t !== null && typeof t['name'] === 'string' ? t['name'] : `#${i}`
}

export function RequestHeaderInfo({
  request,
  timing = null,
  cost,
  onSeq,
}: {
  request: StepRequestView
  /** The step's timing (absent in tests of the header alone). */
  timing?: StepTimingJson | null
  /** The step's cost (absent in tests of the header alone: no cost line). */
  cost?: StepCostAnswer | undefined
  onSeq: (seq: number) => void
}) {
  const header = request.header
  const config = record(header?.['config']) ?? {}
  const system = header?.['system']
  const tools = Array.isArray(header?.['tools']) ? (header['tools'] as unknown[]) : []
  const systemText = system === undefined ? '' : typeof system === 'string' ? system : (JSON.stringify(system, null, 2) ?? '')
  const usage = request.usage
  return (
    <div className="space-y-1 border-b border-line px-2 py-1.5 text-xs" data-testid="request-header">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
        <dt className="text-muted">header</dt>
        {/* Wraps rather than truncates: the effort and the link to the header event come last on the line. */}
        <dd className="min-w-0 break-words">
          {header === null ? (
            <span className="text-muted">none logged before this step</span>
          ) : (
            <>
              <span className="font-mono font-semibold">{text(config['model'])}</span>
              <span className="text-muted"> · </span>
              <span className="font-mono">{text(config['provider'])}</span>
              <span className="text-muted"> · effort </span>
              <span className="font-mono" data-testid="request-effort">
                {text(config['reasoningEffort'])}
              </span>
              {request.headerSeq !== null ? (
                <>
                  <span className="text-muted"> · from </span>
                  <SeqButton seq={request.headerSeq} onSeq={onSeq} title="the request/header event in force" />
                </>
              ) : null}
            </>
          )}
        </dd>
        <dt className="text-muted">usage</dt>
        <dd className="flex flex-wrap items-baseline gap-x-3 font-mono tabular-nums" data-testid="request-usage">
          {usage === null ? (
            <span className="font-sans text-muted">not logged (no assistant message with usage in this step)</span>
          ) : (
            USAGE_FIELDS.map(([key, label]) => (
              <span key={key}>
                <span className="font-sans text-muted">{label} </span>
                {num(usage[key])}
              </span>
            ))
          )}
          <span title="estimated tokens of the system prompt, tools and messages (the core's estimate)">
            <span className="font-sans text-muted">estimate </span>~{formatCount(request.estimatedTokens)}
          </span>
        </dd>
        {cost !== undefined || timing !== null ? <StepCostLine answer={cost} /> : null}
        <RequestTiming timing={timing} />
      </dl>
      {/* The system prompt and the tools share a line while closed; an open one takes the whole width. */}
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {systemText !== '' ? (
          <details className="open:basis-full">
            <summary className="cursor-pointer text-muted">
              system prompt <span className="tabular-nums">({formatCount(systemText.length)} chars)</span>
            </summary>
            <pre
              tabIndex={0}
              className="mt-1 max-h-56 overflow-auto whitespace-pre-wrap break-words rounded border border-line bg-canvas p-1.5 font-mono text-[11px]"
            >
              {systemText}
            </pre>
          </details>
        ) : null}
        {tools.length > 0 ? (
          <details className="open:basis-full">
            <summary className="cursor-pointer text-muted">
              tools <span className="tabular-nums">({tools.length})</span>
            </summary>
            <ul className="mt-1 max-h-40 overflow-auto rounded border border-line bg-canvas p-1.5 font-mono text-[11px]">
              {tools.map((tool, i) => (
                <li key={i} className="truncate">
                  <span className="text-tool">{toolName(tool, i)}</span>
                  <span className="text-muted"> {text(record(tool)?.['description'] ?? '')}</span>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </div>
  )
}
