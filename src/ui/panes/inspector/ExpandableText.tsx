/**
 * A long text in the inspector (an event's JSON), shown a piece at a time: the detail brings the first part,
 * "Show more" asks the worker for the next piece (`detail-text`), and "Copy full value" / "Save full value" take
 * the whole value from the worker without putting it in the page. Each piece is its own text node, so a 10 MB
 * tool result never becomes one 10 MB node laid out in one go, and the page keeps at most `SHOWN_MAX_CHARS`.
 *
 * Hidden characters are counted over the whole value (by the worker) for the banner and shown as markers in
 * what is on screen (`VisibleText`); copying (the button or a selection) gives the original characters.
 *
 * Contract: `[data-testid=expand-text]` (`-disk` for the on-disk JSON) with `data-shown` and `data-total`
 * (UTF-16 characters) and, after a copy, `data-copied` (characters copied); buttons `expand-more`, `copy-full`,
 * `save-full`; `[data-testid=hidden-chars]` with `data-count` when the value holds hidden characters.
 */

import { useState } from 'react'
import type { HiddenCounts } from '../../../core/text/hidden-chars.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import type { DetailTextField, DetailTextInfo } from '../../../protocol/event-views.ts'
import { VisibleText, keepOriginalsOnCopy } from '../../shared/VisibleText.tsx'
import { formatCount } from '../../shared/format-count.ts'
import { saveBlob } from '../../shared/save-blob.ts'
import { BUTTON } from '../../shared/button-class.ts'

/** Characters one "Show more" adds. */
export const SHOW_MORE_CHARS = 256 * 1024
/** Characters the page holds of one value at most; beyond, copy or save it. */
export const SHOWN_MAX_CHARS = 2 * 1024 * 1024

/** "812", "64 K", "10.2 M" characters. */
export function charCount(n: number): string {
  if (n < 1024) return String(n)
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} K`
  return `${(n / (1024 * 1024)).toFixed(1)} M`
}

function hiddenSummary(hidden: HiddenCounts): string {
  const parts = [
    hidden.bidi > 0 ? `${formatCount(hidden.bidi)} bidirectional` : '',
    hidden.invisible > 0 ? `${formatCount(hidden.invisible)} invisible` : '',
    hidden.control > 0 ? `${formatCount(hidden.control)} control` : '',
    hidden.surrogate > 0 ? `${formatCount(hidden.surrogate)} unpaired surrogate` : '',
  ].filter((p) => p !== '')
  return parts.join(', ')
}

export interface ExpandableTextProps {
  readonly index: number
  readonly seq: number | null
  readonly field: DetailTextField
  /** The first piece, as the detail brought it. */
  readonly initial: string
  readonly info: DetailTextInfo
  readonly testId: string
}

export function ExpandableText({ index, seq, field, initial, info, testId }: ExpandableTextProps) {
  const store = useLensStoreApi()
  const suffix = field === 'disk' ? '-disk' : ''
  const [pieces, setPieces] = useState<string[]>([initial])
  const [shown, setShown] = useState(initial.length)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<string | null>(null)
  const [copied, setCopied] = useState<number | null>(null)
  const total = info.total
  const atLimit = shown >= SHOWN_MAX_CHARS

  const fetchText = (offset: number, length: number) => store.getState().detailText(index, field, offset, length)

  const showMore = async (): Promise<void> => {
    setBusy(true)
    try {
      const chunk = await fetchText(shown, SHOW_MORE_CHARS)
      if (chunk === null || chunk.offset !== shown) return
      setPieces((p) => [...p, chunk.text])
      setShown(chunk.end)
    } catch (error) {
      setNote(`Could not read more: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      setBusy(false)
    }
  }

  // The whole value comes as a Blob made in the worker: the main thread never decodes a 10 MB string.
  const fullValue = (): Promise<Blob | null> => store.getState().detailBlob(index, field)

  const copyFull = async (): Promise<void> => {
    setBusy(true)
    try {
      const blob = await fullValue()
      if (blob === null) return
      await copyBlobAsText(blob)
      setCopied(total)
      setNote(`Copied ${formatCount(total)} characters`)
    } catch (error) {
      setNote(`Could not copy: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      setBusy(false)
    }
  }

  const saveFull = async (): Promise<void> => {
    setBusy(true)
    try {
      const blob = await fullValue()
      if (blob === null) return
      saveBlob(blob, `event-${seq ?? index}${field === 'disk' ? '-on-disk' : ''}.json`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-col gap-1">
      {info.hidden.total > 0 ? (
        <p
          className="rounded border border-danger bg-danger-soft px-2 py-1 text-xs"
          role="alert"
          data-testid={`hidden-chars${suffix}`}
          data-count={info.hidden.total}
        >
          ⚠ This value contains {formatCount(info.hidden.total)} bidirectional/invisible character
          {info.hidden.total === 1 ? '' : 's'} ({hiddenSummary(info.hidden)}), shown as ⟨U+…⟩ markers; copies keep the originals.
        </p>
      ) : null}
      <pre
        className="max-h-96 overflow-auto rounded bg-raised p-2 font-mono text-xs whitespace-pre-wrap break-all"
        // It scrolls: a keyboard must be able to reach it.
        tabIndex={0}
        data-testid={testId}
        onCopy={keepOriginalsOnCopy}
      >
        {pieces.map((piece, i) => (
          <span key={i}>
            <VisibleText text={piece} />
          </span>
        ))}
      </pre>
      <div
        className="flex flex-wrap items-center gap-2"
        data-testid={`expand-text${suffix}`}
        data-shown={shown}
        data-total={total}
        data-copied={copied ?? undefined}
      >
        {shown < total && !atLimit ? (
          <button
            type="button"
            className={BUTTON}
            disabled={busy}
            data-testid={`expand-more${suffix}`}
            onClick={() => void showMore()}
          >
            Show more ({charCount(shown)} of {charCount(total)} characters shown)
          </button>
        ) : null}
        {shown < total && atLimit ? (
          <span className="text-xs text-muted">
            The page shows at most {charCount(SHOWN_MAX_CHARS)} characters of a value; copy or save it for the rest.
          </span>
        ) : null}
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          data-testid={`copy-full${suffix}`}
          onClick={() => void copyFull()}
        >
          Copy full value
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          data-testid={`save-full${suffix}`}
          onClick={() => void saveFull()}
        >
          Save full value
        </button>
        {note !== null ? <span className="text-xs text-muted">{note}</span> : null}
      </div>
    </div>
  )
}

/**
 * The clipboard takes the Blob itself where it can, so a 10 MB value is never decoded into one string on the main
 * thread; `writeText` is the fallback where `ClipboardItem` is missing or refuses the type.
 */
async function copyBlobAsText(blob: Blob): Promise<void> {
  if (typeof ClipboardItem !== 'undefined') {
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': new Blob([blob], { type: 'text/plain' }) })])
      return
    } catch {
      // Fall through to the string path.
    }
  }
  await navigator.clipboard.writeText(await blob.text())
}
