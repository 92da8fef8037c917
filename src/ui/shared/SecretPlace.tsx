/**
 * One place a secret stands (the worker's Secrets answer): its kind, the masked preview (never the secret), where
 * (seq, JSON path), the masked text around it, and whether and when the model was sent it. Used by the Secrets panel
 * (with a link that lands on the event) and by the inspector of the event that holds it.
 * `[data-testid=secret-finding]` with `data-seq`, `data-index`, `data-kind`, `data-hash`, `data-seen-by-model`.
 */

import type { ReactNode } from 'react'
import { secretKindLabel } from '../../core/secrets/kind-labels.ts'
import type { SecretFindingView } from '../../protocol/secrets.ts'
import { SeenByModel } from './SeenByModel.tsx'
import { VisibleText } from './VisibleText.tsx'

export function SecretPlace({ place, link }: { place: SecretFindingView; link?: ReactNode }) {
  const label = secretKindLabel(place.kind)
  return (
    <li
      data-testid="secret-finding"
      data-seq={place.seq ?? undefined}
      data-index={place.index}
      data-kind={place.kind}
      data-hash={place.hash}
      data-seen-by-model={place.seen.length > 0}
      className="space-y-0.5 px-3 py-1 text-xs"
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">{label}</span>
        <code className="rounded bg-raised px-1 font-mono" title="masked: the format's marker and the length, never the secret">
          <VisibleText text={place.masked} />
        </code>
        <span className="font-mono text-muted">
          {place.index < 0 ? 'session header' : `#${place.seq ?? '?'}`} · <VisibleText text={place.field} />
        </span>
        <span className="font-mono text-muted" title="the first 8 hex digits of its SHA-256: equal secrets, equal hashes">
          {place.hash}
        </span>
        {link}
      </div>
      <p className="line-clamp-2 font-mono break-all text-muted" title="the text around it, every secret in it masked">
        <VisibleText text={place.context} />
      </p>
      <SeenByModel label={label} index={place.index} seen={place.seen} />
    </li>
  )
}
