/** Mirrors the store's theme onto <html data-theme> (the CSS tokens switch on it) and remembers the choice. */

import { useEffect } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { selectTheme } from '../../store/selectors.ts'
import { writePreference } from '../shared/preference-storage.ts'
import { THEME_KEY } from './initial-theme.ts'

/** The opening theme is settled before React renders (initial-theme.ts); this follows the user's toggles. */
export function useTheme(): void {
  const theme = useLensStore(selectTheme)
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme
    writePreference(THEME_KEY, theme)
  }, [theme])
}
