/** The shortcuts table: one row per (scope, action), no chord bound twice in a scope, and what each press means. */

import { describe, expect, it } from 'vitest'
import { SCOPES, SHORTCUTS, shortcutFor, type ShortcutRow } from './shortcuts.ts'

const press = (key: string, mods: { shift?: boolean; ctrl?: boolean; meta?: boolean; alt?: boolean } = {}) => ({
  key,
  shiftKey: mods.shift ?? false,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  altKey: mods.alt ?? false,
})

describe('shortcuts', () => {
  const rows: readonly ShortcutRow[] = SHORTCUTS

  it('has one row per scope and action, every scope listed, no chord bound twice in a scope', () => {
    expect(new Set(rows.map((r) => `${r.scope}:${r.action}`)).size).toBe(rows.length)
    for (const row of rows) expect(SCOPES.map((s) => s.scope)).toContain(row.scope)
    const chords = rows.flatMap((r) => r.chords.map((c) => `${r.scope}:${c.key}:${c.shift === true}:${c.mod === true}`))
    expect(new Set(chords).size).toBe(chords.length)
    for (const row of rows) expect(row.keys.length > 0 && row.does.length > 0).toBe(true)
  })

  it('matches presses the way the handlers read them', () => {
    expect(shortcutFor('page', press('?', { shift: true }))).toBe('help')
    expect(shortcutFor('page', press('?', { shift: true }), true)).toBeNull()
    expect(shortcutFor('page', press('/'))).toBe('focus-search')
    expect(shortcutFor('page', press('/'), true)).toBeNull()
    expect(shortcutFor('page', press('F', { ctrl: true, shift: true }), true)).toBe('focus-search')
    expect(shortcutFor('page', press('f', { meta: true }), true)).toBe('focus-search')
    expect(shortcutFor('page', press('f'))).toBeNull()
    expect(shortcutFor('search-box', press('Enter', { shift: true }))).toBe('previous')
    expect(shortcutFor('search-box', press('Enter'))).toBe('next')
    expect(shortcutFor('timeline', press('ArrowLeft', { shift: true }))).toBe('previous-surface')
    expect(shortcutFor('timeline', press('ArrowLeft', { alt: true }))).toBeNull()
    expect(shortcutFor('timeline', press('ArrowLeft', { ctrl: true }))).toBeNull()
    expect(shortcutFor('list', press('End'))).toBe('last')
    expect(shortcutFor('graph', press(' '))).toBe('pick')
    expect(shortcutFor('help', press('Escape'))).toBe('close')
    expect(shortcutFor('drawer', press('x'))).toBeNull()
  })
})
