/** Timeline keys also work when nothing in particular has focus (focus on <body>), not only on the scrubber. */

import { useEffect } from 'react'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { scrubActionFor } from '../panes/timeline/scrub-keys.ts'
import { runScrubAction } from '../panes/timeline/TimelineScrubber.tsx'

export function useGlobalKeys(): void {
  const store = useLensStoreApi()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.target !== document.body || event.altKey || event.ctrlKey || event.metaKey) return
      const action = scrubActionFor(event.key, event.shiftKey)
      if (action === null) return
      event.preventDefault()
      runScrubAction(store.getState(), action)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [store])
}
