/**
 * The body of a transcript or surface entry: text, collapsed reasoning, tool calls. Everything from the log is
 * rendered as React text children (escaped by React); there is no HTML path from log content into the DOM.
 * Bidi and invisible characters show as markers (`VisibleText`); a copied selection keeps the originals. Text goes
 * into the DOM cut to what the box shows (display-clip.ts): the rest would only cost layout.
 */

import { useState } from 'react'
import type { EventSummary } from '../../protocol/event-views.ts'
import { VisibleText, keepOriginalsOnCopy } from './VisibleText.tsx'
import { COMPACT_TEXT_CLIP, ROW_TEXT_CLIP, TOOL_ARGS_CLIP, clipForDisplay } from './display-clip.ts'
import { formatCount } from './format-count.ts'

export function EntryBody({ summary, compact }: { summary: EventSummary; compact: boolean }) {
  return (
    <div className="min-w-0" onCopy={keepOriginalsOnCopy}>
      {summary.reasoning !== '' ? <Reasoning text={summary.reasoning} /> : null}
      {summary.text !== '' ? (
        <p className={`${compact ? 'max-h-10' : 'max-h-60'} overflow-hidden whitespace-pre-wrap break-words`}>
          <VisibleText text={clipForDisplay(summary.text, compact ? COMPACT_TEXT_CLIP : ROW_TEXT_CLIP)} />
        </p>
      ) : null}
      {summary.toolCalls.map((call, i) => (
        <p key={i} className="mt-1 max-h-16 overflow-hidden break-all font-mono text-xs">
          <span className="text-tool">
            → <VisibleText text={call.name} />
          </span>{' '}
          <span className="text-muted">
            <VisibleText text={clipForDisplay(call.args, TOOL_ARGS_CLIP)} />
          </span>
        </p>
      ))}
    </div>
  )
}

/**
 * Reasoning, collapsed until clicked. Not a `<details>`: a row is a listbox option, which must hold no control of its
 * own (a screen reader announces the option, not what is inside it); the keyboard's way to the whole reasoning is the
 * inspector, which shows the selected entry in full.
 */
function Reasoning({ text }: { text: string }) {
  const [open, setOpen] = useState(false)
  return (
    <div className="mb-1 text-muted">
      <span
        className="cursor-pointer text-xs"
        data-testid="reasoning-toggle"
        data-open={open}
        onClick={(event) => {
          event.stopPropagation()
          setOpen(!open)
        }}
      >
        {open ? '▾' : '▸'} reasoning ({formatCount(text.length)} chars)
      </span>
      {open ? (
        <p className="max-h-48 overflow-hidden whitespace-pre-wrap break-words text-xs italic">
          <VisibleText text={text} />
        </p>
      ) : null}
    </div>
  )
}
