/** Pure: which key focuses the search box from anywhere, and what a key in the box does. */

/** Ctrl/Cmd+F anywhere, or `/` when focus is not in a text field. */
export function focusesSearch(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean },
  inTextField: boolean,
): boolean {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') return true
  return event.key === '/' && !inTextField && !event.ctrlKey && !event.metaKey && !event.altKey
}

export type SearchBoxAction = { kind: 'step'; delta: 1 | -1 } | { kind: 'clear' } | null

/** Enter / ↓ next result, Shift+Enter / ↑ previous, Esc clears. */
export function searchBoxAction(key: string, shiftKey: boolean): SearchBoxAction {
  if (key === 'Enter') return { kind: 'step', delta: shiftKey ? -1 : 1 }
  if (key === 'ArrowDown') return { kind: 'step', delta: 1 }
  if (key === 'ArrowUp') return { kind: 'step', delta: -1 }
  if (key === 'Escape') return { kind: 'clear' }
  return null
}
