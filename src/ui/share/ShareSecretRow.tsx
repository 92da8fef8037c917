/**
 * One secret in Share…'s review: its kind, masked preview and hash, how many places it stands in and where the first
 * is, the masked text around it, whether the model was sent it, and the choice to keep it (the allow list, by hash).
 * `[data-testid=share-secret]` with `data-hash`, `data-kind`, `data-places`, `data-kept`; the toggle is
 * `[data-testid=share-allow]`.
 */

import { secretKindLabel } from '../../core/secrets/kind-labels.ts'
import { SeenByModel } from '../shared/SeenByModel.tsx'
import { VisibleText } from '../shared/VisibleText.tsx'
import { formatCount } from '../shared/format-count.ts'
import type { ReviewGroup } from './share-counts.ts'

export function ShareSecretRow({
  group,
  kept,
  redact,
  onToggle,
}: {
  group: ReviewGroup
  kept: boolean
  redact: boolean
  onToggle: () => void
}) {
  const label = secretKindLabel(group.kind)
  const first = group.first
  const where = `${first.index < 0 ? 'session header' : `#${first.seq ?? '?'}`} · ${first.field}`
  return (
    <li
      data-testid="share-secret"
      data-hash={group.hash}
      data-kind={group.kind}
      data-places={group.places}
      data-kept={kept}
      className={`space-y-0.5 px-3 py-1 text-xs ${kept || !redact ? 'bg-warn-soft' : ''}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="share-allow"
            checked={kept}
            disabled={!redact}
            onChange={onToggle}
            aria-label={`Keep this ${label} (${group.hash}) in the bundle`}
          />
          keep
        </label>
        <span className="font-semibold">{label}</span>
        <code className="rounded bg-raised px-1 font-mono">
          <VisibleText text={group.masked} />
        </code>
        <span className="font-mono text-muted">{group.hash}</span>
        <span className="text-muted">
          {formatCount(group.places)} place{group.places === 1 ? '' : 's'}, first {group.inOpenLog ? '' : `in ${group.log} `}at{' '}
          <VisibleText text={where} />
        </span>
        <span className={`ml-auto ${kept || !redact ? 'font-semibold text-warn' : 'text-muted'}`}>
          {!redact ? 'stays (no redaction)' : kept ? 'kept as it is' : 'will be replaced'}
        </span>
      </div>
      <p className="line-clamp-2 font-mono break-all text-muted">
        <VisibleText text={first.context} />
      </p>
      {group.inOpenLog ? (
        <SeenByModel
          label={label}
          index={(group.firstSeen ?? first).index}
          seen={(group.firstSeen ?? first).seen}
          className="text-muted"
          links={false}
        />
      ) : (
        <p className="text-muted">
          {group.seenPlaces > 0
            ? `Sent to the model in ${formatCount(group.seenPlaces)} of its places.`
            : 'Never sent to the model.'}
        </p>
      )}
    </li>
  )
}
