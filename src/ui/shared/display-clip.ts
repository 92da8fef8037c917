/**
 * A row's text cut to what its box can show. Rows clip their text with a max height and `overflow: hidden`, but the
 * browser still lays out (shapes and line-breaks) every character it is given: a transcript full of 4,096-character
 * previews made every layout of the panes a long task during a load. The worker's preview stays whole (search, copy of
 * a selection inside the box, the inspector); this only bounds what goes into the DOM, with room to spare for a
 * wide pane (the limits are several times what the box shows at 1440 px).
 */

export interface DisplayClip {
  /** Newlines kept: the box shows fewer lines than this at any width. */
  readonly lines: number
  /** Characters kept: a line of the widest pane holds far fewer than chars / lines. */
  readonly chars: number
}

/** `max-h-60` text (15rem at 20 px lines: 12 lines of at most ~200 characters in a 1,400 px pane). */
export const ROW_TEXT_CLIP: DisplayClip = { lines: 16, chars: 3000 }
/** `max-h-10` compact text (2 lines). */
export const COMPACT_TEXT_CLIP: DisplayClip = { lines: 3, chars: 600 }
/** `max-h-16` tool-call arguments in `text-xs` (4 lines, broken anywhere). */
export const TOOL_ARGS_CLIP: DisplayClip = { lines: 5, chars: 1200 }

export function clipForDisplay(text: string, clip: DisplayClip): string {
  let end = Math.min(text.length, clip.chars)
  let at = -1
  for (let line = 0; line < clip.lines; line++) {
    at = text.indexOf('\n', at + 1)
    if (at === -1 || at >= end) break
    if (line === clip.lines - 1) end = at
  }
  if (end === text.length) return text
  // Never split a surrogate pair: a lone high surrogate would render as U+FFFD.
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return text.slice(0, end)
}
