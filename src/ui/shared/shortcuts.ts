/**
 * Every keyboard shortcut of the viewer, in one table: each key handler asks `shortcutFor(scope, event)` which row a
 * key press matches and acts on that row's `action`, and the `?` help lists the same rows. A key bound here is in
 * the help, and a key in the help is bound: the two can never drift. (Widget keys the browser gives for free, such
 * as Tab, are not listed.)
 */

/** Where a shortcut works: each scope is read by one handler. */
export type ShortcutScope = 'page' | 'timeline' | 'search-box' | 'list' | 'tabs' | 'splitter' | 'graph' | 'drawer' | 'help'

export interface Chord {
  readonly key: string
  /** Shift held (named keys only: a printable key's value already says whether Shift was held). */
  readonly shift?: boolean
  /** Ctrl or Cmd held. */
  readonly mod?: boolean
  /** Not while typing in a text field (a printable key types there). */
  readonly outsideFields?: boolean
}

export interface ShortcutRow {
  readonly scope: ShortcutScope
  readonly action: string
  readonly chords: readonly Chord[]
  /** The keys as the help shows them. */
  readonly keys: string
  readonly does: string
}

/** The scopes in the order the help lists them, with where each works. */
export const SCOPES: readonly { readonly scope: ShortcutScope; readonly where: string }[] = [
  { scope: 'page', where: 'Anywhere' },
  { scope: 'timeline', where: 'The timeline (and the page when nothing else has focus)' },
  { scope: 'search-box', where: 'The search box' },
  { scope: 'list', where: 'Lists: transcript, model surface, request messages, search results' },
  { scope: 'tabs', where: 'The Model surface / Request tabs' },
  { scope: 'splitter', where: 'The column splitters' },
  { scope: 'graph', where: 'The replace graph' },
  { scope: 'drawer', where: 'The Sessions drawer' },
  { scope: 'help', where: 'This help' },
]

export const SHORTCUTS = [
  {
    scope: 'page',
    action: 'focus-search',
    chords: [
      { key: 'f', mod: true },
      { key: '/', outsideFields: true },
    ],
    keys: 'Ctrl/⌘+F, /',
    does: 'Search the log',
  },
  { scope: 'page', action: 'help', chords: [{ key: '?', outsideFields: true }], keys: '?', does: 'Show these shortcuts' },
  { scope: 'timeline', action: 'previous-event', chords: [{ key: 'ArrowLeft' }], keys: '←', does: 'One event back' },
  { scope: 'timeline', action: 'next-event', chords: [{ key: 'ArrowRight' }], keys: '→', does: 'One event forward' },
  {
    scope: 'timeline',
    action: 'previous-surface',
    chords: [{ key: 'ArrowLeft', shift: true }],
    keys: 'Shift+←',
    does: 'Previous change of the model surface',
  },
  {
    scope: 'timeline',
    action: 'next-surface',
    chords: [{ key: 'ArrowRight', shift: true }],
    keys: 'Shift+→',
    does: 'Next change of the model surface',
  },
  { scope: 'timeline', action: 'previous-replace', chords: [{ key: '[' }], keys: '[', does: 'Previous replace operation' },
  { scope: 'timeline', action: 'next-replace', chords: [{ key: ']' }], keys: ']', does: 'Next replace operation' },
  { scope: 'timeline', action: 'previous-turn', chords: [{ key: 'PageUp' }], keys: 'PageUp', does: 'Previous turn' },
  { scope: 'timeline', action: 'next-turn', chords: [{ key: 'PageDown' }], keys: 'PageDown', does: 'Next turn' },
  { scope: 'timeline', action: 'first', chords: [{ key: 'Home' }], keys: 'Home', does: 'First event' },
  { scope: 'timeline', action: 'last', chords: [{ key: 'End' }], keys: 'End', does: 'Last event' },
  { scope: 'timeline', action: 'play', chords: [{ key: ' ' }], keys: 'Space', does: 'Play or pause the replay' },
  {
    scope: 'search-box',
    action: 'next',
    chords: [{ key: 'Enter' }, { key: 'ArrowDown' }],
    keys: 'Enter, ↓',
    does: 'Next result',
  },
  {
    scope: 'search-box',
    action: 'previous',
    chords: [{ key: 'Enter', shift: true }, { key: 'ArrowUp' }],
    keys: 'Shift+Enter, ↑',
    does: 'Previous result',
  },
  { scope: 'search-box', action: 'clear', chords: [{ key: 'Escape' }], keys: 'Esc', does: 'Clear the search' },
  { scope: 'list', action: 'next', chords: [{ key: 'ArrowDown' }], keys: '↓', does: 'Next row' },
  { scope: 'list', action: 'previous', chords: [{ key: 'ArrowUp' }], keys: '↑', does: 'Previous row' },
  { scope: 'list', action: 'page-down', chords: [{ key: 'PageDown' }], keys: 'PageDown', does: 'A page of rows down' },
  { scope: 'list', action: 'page-up', chords: [{ key: 'PageUp' }], keys: 'PageUp', does: 'A page of rows up' },
  { scope: 'list', action: 'first', chords: [{ key: 'Home' }], keys: 'Home', does: 'First row' },
  { scope: 'list', action: 'last', chords: [{ key: 'End' }], keys: 'End', does: 'Last row' },
  { scope: 'tabs', action: 'next', chords: [{ key: 'ArrowRight' }], keys: '→', does: 'Next tab' },
  { scope: 'tabs', action: 'previous', chords: [{ key: 'ArrowLeft' }], keys: '←', does: 'Previous tab' },
  { scope: 'tabs', action: 'first', chords: [{ key: 'Home' }], keys: 'Home', does: 'First tab' },
  { scope: 'tabs', action: 'last', chords: [{ key: 'End' }], keys: 'End', does: 'Last tab' },
  { scope: 'splitter', action: 'narrower', chords: [{ key: 'ArrowLeft' }], keys: '←', does: 'Move the splitter left' },
  { scope: 'splitter', action: 'wider', chords: [{ key: 'ArrowRight' }], keys: '→', does: 'Move the splitter right' },
  {
    scope: 'graph',
    action: 'pick',
    chords: [{ key: 'Enter' }, { key: ' ' }],
    keys: 'Enter, Space',
    does: 'Go to the focused replacement',
  },
  { scope: 'drawer', action: 'close', chords: [{ key: 'Escape' }], keys: 'Esc', does: 'Close the drawer' },
  { scope: 'help', action: 'close', chords: [{ key: 'Escape' }], keys: 'Esc', does: 'Close this help' },
] as const satisfies readonly ShortcutRow[]

type Row = (typeof SHORTCUTS)[number]

/** The actions of one scope. */
export type ShortcutAction<S extends ShortcutScope> = Extract<Row, { scope: S }>['action']

/** What a handler needs of a key event (a DOM KeyboardEvent or React's). */
export interface KeyPress {
  readonly key: string
  readonly shiftKey: boolean
  readonly ctrlKey: boolean
  readonly metaKey: boolean
  readonly altKey: boolean
}

function matches(chord: Chord, press: KeyPress, inTextField: boolean): boolean {
  if (press.altKey) return false
  const printable = press.key.length === 1
  const key = printable && chord.mod === true ? press.key.toLowerCase() : press.key
  if (key !== chord.key) return false
  if ((press.ctrlKey || press.metaKey) !== (chord.mod ?? false)) return false
  if (!printable && press.shiftKey !== (chord.shift ?? false)) return false
  return !(chord.outsideFields === true && inTextField)
}

/** The action of `scope` a key press means, or null. `inTextField`: the press happened while typing in a field. */
export function shortcutFor<S extends ShortcutScope>(scope: S, press: KeyPress, inTextField = false): ShortcutAction<S> | null {
  const rows: readonly ShortcutRow[] = SHORTCUTS
  const row = rows.find((r) => r.scope === scope && r.chords.some((chord) => matches(chord, press, inTextField)))
  return (row?.action ?? null) as ShortcutAction<S> | null
}

/** Whether an element takes typed text (a printable key there is text, not a shortcut). */
export function isTextField(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null
  return element !== null && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.isContentEditable === true)
}
