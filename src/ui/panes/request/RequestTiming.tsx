/**
 * Where the step's time went, beside its usage (issue 30): TTFT, generation, tokens per second and each tool call's
 * time, the step's entry of `lens timing --json` as the worker sends it. "—" where the log does not say; tool names
 * come from the log and render as text.
 */

import type { StepTimingJson } from '../../../core/index.ts'
import { formatDuration, formatRate } from '../../shared/format-duration.ts'

const ms = (value: number | null): string => (value === null ? '—' : formatDuration(value))

/** The `timing` term and its description, for the request header's list. */
export function RequestTiming({ timing }: { timing: StepTimingJson | null }) {
  return (
    <>
      <dt className="text-muted">timing</dt>
      <dd
        className="flex flex-wrap items-baseline gap-x-3 font-mono tabular-nums"
        data-testid="request-timing"
        data-ttft-ms={timing?.ttftMs ?? ''}
        data-generation-ms={timing?.generationMs ?? ''}
        data-tokens-per-second={timing?.tokensPerSecond ?? ''}
        data-tools={timing?.tools.length ?? 0}
      >
        {timing === null ? (
          <span className="font-sans text-muted">no step</span>
        ) : (
          <>
            <span title="request to first output">
              <span className="font-sans text-muted">TTFT </span>
              {ms(timing.ttftMs)}
            </span>
            <span title="first output to the assistant message">
              <span className="font-sans text-muted">generation </span>
              {ms(timing.generationMs)}
            </span>
            <span>{formatRate(timing.tokensPerSecond)}</span>
            {timing.retries.length > 0 ? (
              <span title="llm/retry events and the waits they scheduled">
                <span className="font-sans text-muted">retries </span>
                {timing.retries.length} (
                {ms(timing.retries.reduce<number | null>((n, r) => (r.waitMs === null ? n : (n ?? 0) + r.waitMs), null))})
              </span>
            ) : null}
            {timing.tools.map((tool) => (
              <span key={tool.callId} data-testid="request-tool-time" data-ms={tool.ms ?? ''}>
                <span className="font-sans text-tool">{tool.name ?? 'tool'} </span>
                {tool.ms === null ? <span className="font-sans text-muted">no result</span> : ms(tool.ms)}
              </span>
            ))}
          </>
        )}
      </dd>
    </>
  )
}
