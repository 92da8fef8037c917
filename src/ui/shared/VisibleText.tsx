/**
 * Text from the log with its bidirectional and invisible characters made visible, as code review tools do:
 * `abc\u202Eevil` shows as "abc⟨U+202E⟩evil" instead of rendering reversed. Each hidden character becomes a
 * `<span data-hidden-char="202E">` whose *text* is the marker (React text children, never markup), so the
 * character itself never reaches the DOM and cannot reorder or hide what follows it.
 *
 * Copying a selection gives the original characters back (`keepOriginalsOnCopy`): the markers are for the eye.
 */

import { hasHidden, hiddenCharName, hiddenMarker, splitHidden, type HiddenKind } from '../../core/text/hidden-chars.ts'

const MARKER_CLASS: Record<HiddenKind, string> = {
  bidi: 'bg-danger-soft text-danger',
  control: 'bg-warn-soft text-warn',
  invisible: 'bg-warn-soft text-warn',
  surrogate: 'bg-warn-soft text-warn',
}

export function VisibleText({ text }: { text: string }) {
  // The common case, and the cheap one: nothing hidden, one text node.
  if (!hasHidden(text)) return text
  return (
    <>
      {splitHidden(text).map((segment, i) =>
        segment.kind === 'text' ? (
          segment.text
        ) : (
          <span
            key={i}
            className={`rounded-sm px-px font-mono text-[0.85em] ${MARKER_CLASS[segment.kind]}`}
            data-hidden-char={segment.codePoint.toString(16).toUpperCase()}
            data-hidden-kind={segment.kind}
            title={hiddenCharName(segment.codePoint)}
          >
            {hiddenMarker(segment.codePoint)}
          </span>
        ),
      )}
    </>
  )
}

/**
 * `onCopy` for a container of `VisibleText`: when the selection holds markers, the clipboard gets the selected
 * text with each marker replaced by the character it stands for. Without markers the browser's copy is kept.
 */
export function keepOriginalsOnCopy(event: React.ClipboardEvent): void {
  const selection = window.getSelection()
  if (selection === null || selection.rangeCount === 0 || selection.isCollapsed) return
  const parts: string[] = []
  let restored = false
  for (let r = 0; r < selection.rangeCount; r++) {
    const fragment = selection.getRangeAt(r).cloneContents()
    for (const marker of fragment.querySelectorAll('[data-hidden-char]')) {
      const codePoint = Number.parseInt(marker.getAttribute('data-hidden-char') ?? '', 16)
      // A selection that cuts a marker in half keeps what was selected of it: only whole markers are swapped.
      if (Number.isInteger(codePoint) && marker.textContent === hiddenMarker(codePoint)) {
        marker.replaceWith(String.fromCodePoint(codePoint))
        restored = true
      }
    }
    parts.push(fragment.textContent ?? '')
  }
  if (!restored) return
  event.clipboardData.setData('text/plain', parts.join(''))
  event.preventDefault()
}
