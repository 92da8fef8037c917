/**
 * Page-wide keys (the `page` rows of the shortcuts table: `?` opens the help) and the timeline's keys when nothing
 * in particular has focus (focus on <body>), not only on the scrubber.
 */

import { useEffect } from 'react'
import { isTextField, shortcutFor } from '../shared/shortcuts.ts'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { scrubActionFor } from '../panes/timeline/scrub-keys.ts'
import { runScrubAction } from '../panes/timeline/TimelineScrubber.tsx'

export function useGlobalKeys(openHelp: () => void): void {
  const store = useLensStoreApi()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return
      if (shortcutFor('page', event, isTextField(event.target)) === 'help') {
        event.preventDefault()
        openHelp()
        return
      }
      if (event.target !== document.body) return
      const action = scrubActionFor(event)
      if (action === null) return
      event.preventDefault()
      runScrubAction(store.getState(), action)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [store, openHelp])
}
