/** The Secrets panel, loaded when it is first opened: the first screen never pays for it. */

import { lazy, Suspense } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'

const SecretsPanel = lazy(async () => ({ default: (await import('./SecretsPanel.tsx')).SecretsPanel }))

export function LazySecretsPanel() {
  const open = useLensStore((s) => s.secrets.open)
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <SecretsPanel />
    </Suspense>
  )
}
