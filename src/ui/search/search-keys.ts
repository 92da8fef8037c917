/** Pure: which key focuses the search box from anywhere, and what a key in the box does (rows of the shortcuts table). */

import { shortcutFor, type KeyPress } from '../shared/shortcuts.ts'

/** Ctrl/Cmd+F anywhere, or `/` when focus is not in a text field. */
export function focusesSearch(press: KeyPress, inTextField: boolean): boolean {
  return shortcutFor('page', press, inTextField) === 'focus-search'
}

export type SearchBoxAction = { kind: 'step'; delta: 1 | -1 } | { kind: 'clear' } | null

/** Enter / ↓ next result, Shift+Enter / ↑ previous, Esc clears. */
export function searchBoxAction(press: KeyPress): SearchBoxAction {
  const action = shortcutFor('search-box', press)
  if (action === 'next') return { kind: 'step', delta: 1 }
  if (action === 'previous') return { kind: 'step', delta: -1 }
  return action === 'clear' ? { kind: 'clear' } : null
}
