/**
 * The theme a page opens with, settled before React renders (start-lens.ts): the remembered choice, else the
 * system's. Set on `<html data-theme>` from the start, a dark page never shows a light first frame, and the canvases'
 * colours can be read once while the page is still an empty shell (theme-colors.ts).
 */

import type { Theme } from '../../store/slices/layout-slice.ts'
import { readPreference } from '../shared/preference-storage.ts'

export const THEME_KEY = 'dsh-lens.theme'

export function initialTheme(): Theme {
  const saved = readPreference(THEME_KEY)
  if (saved === 'dark' || saved === 'light') return saved
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches === true ? 'dark' : 'light'
}
