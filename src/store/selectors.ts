/** Module-level selectors (stable identities, so components re-render only when their slice changes). */

import type { LensState } from './create-lens-store.ts'

export const selectLoadState = (s: LensState) => s.loadState
export const selectSummary = (s: LensState) => s.summary
export const selectSnapshot = (s: LensState) => s.snapshot
export const selectCursor = (s: LensState) => s.cursor
export const selectSelected = (s: LensState) => s.selected
export const selectDetail = (s: LensState) => s.detail
export const selectTheme = (s: LensState) => s.theme
export const selectShowLogOnly = (s: LensState) => s.showLogOnly
export const selectPaneFractions = (s: LensState) => s.paneFractions
export const selectCacheVersion = (s: LensState) => s.cacheVersion
export const selectProgress = (s: LensState) => s.progress
export const selectLoadError = (s: LensState) => s.loadError
export const selectSourceName = (s: LensState) => s.sourceName
