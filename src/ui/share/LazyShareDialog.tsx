/** Share…'s dialog, loaded when it is first opened: the first screen never pays for it. */

import { lazy, Suspense } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'

const ShareDialog = lazy(async () => ({ default: (await import('./ShareDialog.tsx')).ShareDialog }))

export function LazyShareDialog() {
  const open = useLensStore((s) => s.share.open)
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <ShareDialog />
    </Suspense>
  )
}
