/** Mirrors the store's theme onto <html data-theme> (the CSS tokens switch on it) and remembers the choice. */

import { useEffect } from 'react'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectTheme } from '../../store/selectors.ts'
import { readPreference, writePreference } from '../shared/preference-storage.ts'

const THEME_KEY = 'dsh-lens.theme'

export function useTheme(): void {
  const store = useLensStoreApi()
  const theme = useLensStore(selectTheme)
  useEffect(() => {
    const saved = readPreference(THEME_KEY)
    if (saved === 'dark' || saved === 'light') store.getState().setTheme(saved)
    else if (window.matchMedia?.('(prefers-color-scheme: dark)').matches) store.getState().setTheme('dark')
  }, [store])
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme
    writePreference(THEME_KEY, theme)
  }, [theme])
}
