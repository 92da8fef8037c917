/**
 * One run of a message's line diff, as the Request view and the Compare view show it: deletions marked − and struck,
 * insertions + and highlighted, unchanged lines dimmed, a long unchanged run as one "⋯ N unchanged lines ⋯" line.
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
