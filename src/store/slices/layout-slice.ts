/** Layout and theme: pane widths, the log-only toggle, light/dark. Pure view state. */

import type { LensSliceCreator } from './types.ts'

export type Theme = 'light' | 'dark'

export interface LayoutSlice {
  theme: Theme
  showLogOnly: boolean
  /** Widths of the transcript and surface panes as fractions of the main area; the side column takes the rest. */
  paneFractions: readonly [number, number]
  /** Whether the context chart strip above the timeline is open (remembered in localStorage by the strip). */
  contextChartOpen: boolean
  setContextChartOpen: (open: boolean) => void
  toggleTheme: () => void
  setTheme: (theme: Theme) => void
  toggleLogOnly: () => void
  setPaneFraction: (pane: 0 | 1, fraction: number) => void
}

/** Narrowest a pane may get, as a fraction of the main area. */
export const MIN_PANE_FRACTION = 0.12

export const createLayoutSlice: LensSliceCreator<LayoutSlice> = () => (set) => ({
  theme: 'light',
  showLogOnly: false,
  paneFractions: [0.34, 0.33],
  contextChartOpen: true,
  setContextChartOpen: (contextChartOpen) => set({ contextChartOpen }),
  toggleTheme: () => set((s) => ({ theme: s.theme === 'light' ? 'dark' : 'light' })),
  setTheme: (theme) => set({ theme }),
  toggleLogOnly: () => set((s) => ({ showLogOnly: !s.showLogOnly })),
  setPaneFraction: (pane, fraction) =>
    set((s) => {
      const next: [number, number] = [s.paneFractions[0], s.paneFractions[1]]
      const other = next[pane === 0 ? 1 : 0]
      next[pane] = Math.min(Math.max(fraction, MIN_PANE_FRACTION), 1 - other - MIN_PANE_FRACTION)
      return { paneFractions: next }
    }),
})
