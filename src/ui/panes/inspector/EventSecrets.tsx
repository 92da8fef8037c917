/**
 * The secrets the selected event holds, in the inspector, once the log has been scanned (the Secrets answer or
 * Share… asked for it: selecting an event never starts a scan). The list is a chunk of its own, loaded with the
 * first scan: the first screen never pays for it.
 */

import { lazy, Suspense } from 'react'
import { useLensStore } from '../../../store/lens-store-context.tsx'

const EventSecretsList = lazy(async () => ({ default: (await import('./EventSecretsList.tsx')).EventSecretsList }))

export function EventSecrets({ index }: { index: number }) {
  const scannedAt = useLensStore((s) =>
    s.secrets.generation === s.loadGeneration && s.secrets.answer !== null ? s.secrets.answer.length : null,
  )
  if (scannedAt === null) return null
  return (
    <Suspense fallback={null}>
      <EventSecretsList index={index} scannedAt={scannedAt} />
    </Suspense>
  )
}
