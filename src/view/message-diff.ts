/**
 * What changed in a message (issue 31 §2): the first message of a step's request that differs from the message at
 * the same position in the previous step's request (a prune rewrote a tool result, a summary replaced a range), as a
 * line diff of the two messages' texts. `diff` (Myers' algorithm, jsdiff) computes it, here in the worker: a tool
 * result can be megabytes, and the search is bounded (`DIFF_TIMEOUT_MS`, `DIFF_MAX_EDIT_LENGTH`) so two very
 * different texts cost a bounded time and say so instead of a diff.
 *
 * Unchanged runs longer than `CONTEXT_LINES * 2 + 1` lines keep their first and last `CONTEXT_LINES` and are
 * collapsed in between; every part's text is capped, so a huge message never becomes a huge answer.
 */

import { diffLines } from 'diff'
import { findStepPosition, isDeepEqualJson, isRecord, stepRequest, type LensLog } from '../core/index.ts'
import type { MessageDiffAnswer, MessageDiffPart } from '../protocol/step-request.ts'

export const CONTEXT_LINES = 2
export const DIFF_TIMEOUT_MS = 250
export const DIFF_MAX_EDIT_LENGTH = 4000
/** Characters of one part that go to the page; the rest is counted. */
export const PART_TEXT_MAX = 4000
/** Characters of each message diffed at most (the rest is left out, and said). */
export const DIFF_TEXT_MAX = 400_000

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

function capped(kind: MessageDiffPart['kind'], text: string): MessageDiffPart {
  return {
    kind,
    text: text.length > PART_TEXT_MAX ? text.slice(0, PART_TEXT_MAX) : text,
    lines: lineCount(text),
    cut: Math.max(0, text.length - PART_TEXT_MAX),
  }
}

/** Line diff of `before` and `after` with long unchanged runs collapsed; null when the bounded search gave up. */
export function diffParts(before: string, after: string): MessageDiffPart[] | null {
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS, maxEditLength: DIFF_MAX_EDIT_LENGTH })
  if (changes === undefined) return null
  const parts: MessageDiffPart[] = []
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

/**
 * The text diff of the first message of step `turn.step`'s request that differs from the message at the same
 * position in the previous step's request; null when there is no such step, no previous step, or no message at a
 * position both requests have differs.
 */
export function requestMessageDiff(log: LensLog, turn: number, step: number): MessageDiffAnswer | null {
  const position = findStepPosition(log, turn, step)
  if (position <= 0) return null
  const current = stepRequest(log, position)
  const previous = stepRequest(log, position - 1)
  if (current === undefined || previous === undefined) return null
  const shared = Math.min(current.messages.length, previous.messages.length)
  for (let index = 0; index < shared; index++) {
    const now = current.messages[index] as { seq: number; message: unknown }
    const before = previous.messages[index] as { seq: number; message: unknown }
    if (isDeepEqualJson(now.message, before.message)) continue
    const a = messageText(before.message)
    const b = messageText(now.message)
    const clipped = a.length > DIFF_TEXT_MAX || b.length > DIFF_TEXT_MAX
    const parts = diffParts(a.slice(0, DIFF_TEXT_MAX), b.slice(0, DIFF_TEXT_MAX))
    return {
      index,
      seq: now.seq,
      previousSeq: before.seq,
      previousStep: `${previous.turn}.${previous.step}`,
      parts,
      removedLines: parts === null ? 0 : parts.filter((p) => p.kind === 'removed').reduce((n, p) => n + p.lines, 0),
      addedLines: parts === null ? 0 : parts.filter((p) => p.kind === 'added').reduce((n, p) => n + p.lines, 0),
      beforeChars: a.length,
      afterChars: b.length,
      clipped,
    }
  }
  return null
}
