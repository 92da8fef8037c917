/**
 * The text diff of two messages, as a reader compares them: each message as text (reasoning, text, tool calls and tool
 * results, one per block), then a line diff (Myers' algorithm, jsdiff) with long unchanged runs collapsed and every
 * part's text capped, so a huge message never becomes a huge answer. The search is bounded (`DIFF_TIMEOUT_MS`,
 * `DIFF_MAX_EDIT_LENGTH`): two very different texts cost a bounded time and say so (`parts: null`) instead of a diff.
 *
 * The Request view's "what changed in this message" (issue 31, `src/view/message-diff.ts`) and the comparison of two
 * runs (`src/core/compare`) both read it, so a message diff reads the same wherever it is shown.
 *
 * The search runs twice at most. First with `DIFF_SURE_EDIT_LENGTH` and no clock: jsdiff's cost grows with the square
 * of the edit length, so this pass is bounded by the text's size alone, and every diff it finds is found on any machine
 * however busy (an answer, a test, `dsh-lens diff --json` never depend on the load). Only texts that differ by more lines
 * are searched again up to `DIFF_MAX_EDIT_LENGTH`, under `DIFF_TIMEOUT_MS` of wall clock: those alone may say
 * `parts: null` on one run and not on another.
 */

import { diffLines } from 'diff'
import { isRecord } from '../model/log-event.ts'

export const CONTEXT_LINES = 2
/** Lines added plus removed that a diff always finds, whatever the clock says (see above). */
export const DIFF_SURE_EDIT_LENGTH = 200
export const DIFF_TIMEOUT_MS = 250
export const DIFF_MAX_EDIT_LENGTH = 4000
/** Characters of one part that are kept; the rest is counted. */
export const PART_TEXT_MAX = 4000
/** Characters of each message diffed at most (the rest is left out, and said). */
export const DIFF_TEXT_MAX = 400_000

export interface TextDiffPart {
  readonly kind: 'same' | 'added' | 'removed' | 'skipped'
  /** The run's text (empty when skipped), cut to the first `PART_TEXT_MAX` characters. */
  readonly text: string
  readonly lines: number
  /** Characters of the run left out. */
  readonly cut: number
}

/** The line diff of two messages' texts, `before` to `after`. */
export interface MessageTextDiff {
  /** Null when the two texts are too different to diff in bounded time. */
  readonly parts: readonly TextDiffPart[] | null
  readonly removedLines: number
  readonly addedLines: number
  readonly beforeChars: number
  readonly afterChars: number
  /** A text was longer than the part diffed (`DIFF_TEXT_MAX`). */
  readonly clipped: boolean
}

/** A message as text, the way a reader compares two: reasoning, text, tool calls and tool results, one per block. */
export function messageText(message: unknown): string {
  const content = isRecord(message) ? message['content'] : undefined
  if (!Array.isArray(content)) return typeof content === 'string' ? content : ''
  const out: string[] = []
  for (const block of content) {
    if (!isRecord(block)) continue
    const type = block['type']
    if (type === 'text' && typeof block['text'] === 'string') out.push(block['text'])
    else if (type === 'reasoning' && typeof block['text'] === 'string') out.push(`(reasoning) ${block['text']}`)
    else if (type === 'tool-call')
      out.push(
        `→ ${String(block['name'])} ${typeof block['arguments'] === 'string' ? block['arguments'] : JSON.stringify(block['arguments'])}`,
      )
    else if (type === 'tool-result') out.push(messageText(block))
  }
  return out.join('\n')
}

const lineCount = (text: string): number => {
  let n = 0
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++
  return text.endsWith('\n') || text === '' ? n : n + 1
}

function capped(kind: TextDiffPart['kind'], text: string): TextDiffPart {
  return {
    kind,
    text: text.length > PART_TEXT_MAX ? text.slice(0, PART_TEXT_MAX) : text,
    lines: lineCount(text),
    cut: Math.max(0, text.length - PART_TEXT_MAX),
  }
}

/** Line diff of `before` and `after` with long unchanged runs collapsed; null when the bounded search gave up. */
export function diffParts(before: string, after: string): TextDiffPart[] | null {
  const changes =
    diffLines(before, after, { maxEditLength: DIFF_SURE_EDIT_LENGTH }) ??
    diffLines(before, after, { timeout: DIFF_TIMEOUT_MS, maxEditLength: DIFF_MAX_EDIT_LENGTH })
  if (changes === undefined) return null
  const parts: TextDiffPart[] = []
  for (const [k, change] of changes.entries()) {
    if (change.added) parts.push(capped('added', change.value))
    else if (change.removed) parts.push(capped('removed', change.value))
    else {
      const lines = change.value.split(/(?<=\n)/u)
      const keepHead = k === 0 ? 0 : CONTEXT_LINES
      const keepTail = k === changes.length - 1 ? 0 : CONTEXT_LINES
      if (lines.length <= keepHead + keepTail + 1) {
        parts.push(capped('same', change.value))
        continue
      }
      if (keepHead > 0) parts.push(capped('same', lines.slice(0, keepHead).join('')))
      parts.push({ kind: 'skipped', text: '', lines: lines.length - keepHead - keepTail, cut: 0 })
      if (keepTail > 0) parts.push(capped('same', lines.slice(lines.length - keepTail).join('')))
    }
  }
  return parts
}

const linesOf = (parts: readonly TextDiffPart[] | null, kind: TextDiffPart['kind']): number =>
  parts === null ? 0 : parts.filter((p) => p.kind === kind).reduce((n, p) => n + p.lines, 0)

/** The text diff of two messages (as `messageText` reads them), each clipped to `DIFF_TEXT_MAX` characters. */
export function messageTextDiff(before: unknown, after: unknown): MessageTextDiff {
  const a = messageText(before)
  const b = messageText(after)
  const parts = diffParts(a.slice(0, DIFF_TEXT_MAX), b.slice(0, DIFF_TEXT_MAX))
  return {
    parts,
    removedLines: linesOf(parts, 'removed'),
    addedLines: linesOf(parts, 'added'),
    beforeChars: a.length,
    afterChars: b.length,
    clipped: a.length > DIFF_TEXT_MAX || b.length > DIFF_TEXT_MAX,
  }
}
