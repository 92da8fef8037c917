/**
 * A message's line diff as the Request view and the Compare view show it: its size (− removed / + added lines), and
 * its text, run by run: deletions marked − and struck, insertions + and highlighted, unchanged lines dimmed, a long
 * unchanged run as one "⋯ N unchanged lines ⋯" line.
 */

import type { MessageDiffPart } from '../../../protocol/step-request.ts'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { formatCount } from '../../shared/format-count.ts'

const prefixed = (text: string, sign: string): string =>
  text
    .replace(/\n$/u, '')
    .split('\n')
    .map((line) => `${sign} ${line}`)
    .join('\n') + '\n'

export function Part({ part }: { part: MessageDiffPart }) {
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

/** What both views' diffs carry (`MessageTextDiff` in the core). */
interface TextDiff {
  readonly removedLines: number
  readonly addedLines: number
  readonly clipped: boolean
  readonly beforeChars: number
  readonly afterChars: number
  readonly parts: readonly MessageDiffPart[] | null
}

/** ` · −R / +A lines`, and the characters compared when only the start of long texts was diffed. */
export function DiffSize({ diff }: { diff: TextDiff }) {
  return (
    <>
      {' '}
      · <span className="text-danger">−{formatCount(diff.removedLines)}</span> /{' '}
      <span className="text-ink">+{formatCount(diff.addedLines)}</span> lines
      {diff.clipped ? ` · ${formatCount(diff.beforeChars)} → ${formatCount(diff.afterChars)} characters, the start diffed` : ''}
    </>
  )
}

/** The diff's text, scrolling in a box `heightClass` high (or why it is not shown). */
export function DiffText({ diff, label, heightClass }: { diff: TextDiff; label: string; heightClass: string }) {
  if (diff.parts === null) return <p className="text-muted">The two texts differ too much to show their difference here.</p>
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className={`mt-0.5 ${heightClass} overflow-auto whitespace-pre-wrap break-words rounded border border-line bg-canvas p-1 font-mono text-[11px]`}
    >
      {diff.parts.map((part, k) => (
        <Part key={k} part={part} />
      ))}
    </pre>
  )
}
