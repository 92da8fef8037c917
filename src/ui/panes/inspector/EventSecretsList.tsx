/**
 * The secrets at one event, answered by the worker from the scan it keeps (`secrets-at`), as SecretPlace rows.
 * `[data-testid=inspector-secrets]` with `data-count`.
 */

import { SecretPlace } from '../../shared/SecretPlace.tsx'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'

export function EventSecretsList({ index, scannedAt }: { index: number; scannedAt: number }) {
  const answer = useWorkerAnswer(`secrets-at:${index}:${scannedAt}`, (ask) => ask('secrets-at', { index }))
  if (answer === undefined || !answer.scanned || answer.findings.length === 0) return null
  const n = answer.findings.length
  return (
    <div
      role="group"
      aria-label="Secrets in this event"
      data-testid="inspector-secrets"
      data-count={n}
      className="rounded border border-danger bg-danger-soft py-1"
    >
      <h3 className="px-3 text-xs font-semibold text-danger">
        This event holds {n === 1 ? 'a secret' : `${n} secrets`} (masked below; Share… redacts {n === 1 ? 'it' : 'them'})
      </h3>
      <ul className="divide-y divide-line">
        {answer.findings.map((place, k) => (
          <SecretPlace key={k} place={place} />
        ))}
      </ul>
    </div>
  )
}
