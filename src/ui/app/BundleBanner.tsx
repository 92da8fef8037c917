/**
 * The banner of an offline bundle (`dsh-lens bundle`, Share…): that this page is a bundle, of which session, made
 * when and by what, and how it was redacted: the count of replacements, or "not redacted", said plainly (the file
 * then holds the log's secrets as logged). Read from the page's own data element, never from the logs.
 *
 * Contract: `[data-testid=bundle-banner]` with `data-redactions` (`redaction.count`) and `data-mode`
 * (`redacted|not-redacted`).
 */

import type { BundleData } from '../../core/export/offline-bundle.ts'
import { usePageSource } from './page-source-context.tsx'
import { VisibleText } from '../shared/VisibleText.tsx'
import { formatCount } from '../shared/format-count.ts'

const plural = (n: number, one: string): string => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`

/** `2026-01-31 14:05` in the reader's time zone (the full instant in UTC is the title). */
function madeWhen(iso: string): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const two = (n: number): string => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`
}

export function redactionWords(data: BundleData): string {
  const r = data.redaction
  if (r.mode === 'not-redacted') return 'NOT redacted: this file holds every secret of the log as it was logged'
  const parts = [
    r.count === 0
      ? 'redacted: no secret was found'
      : `redacted: ${plural(r.count, 'replacement')} of ${plural(r.secrets, 'secret')}`,
  ]
  if (r.allowed > 0) parts.push(`${plural(r.allowed, 'secret')} kept by its maker`)
  if (r.paths) parts.push('home paths and user names replaced')
  return parts.join(', ')
}

export function BundleBanner() {
  const source = usePageSource()
  if (source.kind !== 'bundle') return null
  const data = source.data
  const notRedacted = data.redaction.mode === 'not-redacted'
  const logs = data.logs.length
  return (
    <div
      role={notRedacted ? 'alert' : 'note'}
      data-testid="bundle-banner"
      data-redactions={data.redaction.count}
      data-mode={data.redaction.mode}
      className={`flex flex-wrap items-baseline gap-x-2 border-b px-3 py-1 text-xs ${
        notRedacted ? 'border-danger bg-danger-soft' : 'border-line bg-accent-soft'
      }`}
    >
      <span className="font-semibold">Offline bundle</span>
      <span>
        of{' '}
        {data.session.title !== null ? (
          <>
            <span className="font-semibold">
              <VisibleText text={data.session.title} />
            </span>
            {data.session.id !== null ? (
              <span className="font-mono">
                {' '}
                (<VisibleText text={data.session.id} />)
              </span>
            ) : null}
          </>
        ) : data.session.id !== null ? (
          <>
            session{' '}
            <span className="font-mono">
              <VisibleText text={data.session.id} />
            </span>
          </>
        ) : (
          'a session'
        )}
        {logs > 1 ? ` with ${plural(logs - 1, 'subagent log')}` : ''}
      </span>
      <span title={data.madeAt}>
        · made {madeWhen(data.madeAt)} by <VisibleText text={data.madeBy} />
      </span>
      <span className={notRedacted ? 'font-semibold text-danger' : ''}>· {redactionWords(data)}</span>
      <span className="text-muted">· opened from this file alone: nothing is fetched</span>
    </div>
  )
}
