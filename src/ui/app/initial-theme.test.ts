// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { initialTheme, THEME_KEY } from './initial-theme.ts'

function systemPrefersDark(dark: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)' }))
}

describe('initialTheme', () => {
  afterEach(() => {
    localStorage.clear()
    vi.unstubAllGlobals()
  })

  it('opens with the remembered choice, whatever the system prefers', () => {
    systemPrefersDark(true)
    localStorage.setItem(THEME_KEY, 'light')
    expect(initialTheme()).toBe('light')
    systemPrefersDark(false)
    localStorage.setItem(THEME_KEY, 'dark')
    expect(initialTheme()).toBe('dark')
  })

  it("without one (or with an unknown value), follows the system's preference", () => {
    systemPrefersDark(true)
    expect(initialTheme()).toBe('dark')
    localStorage.setItem(THEME_KEY, 'sepia')
    expect(initialTheme()).toBe('dark')
    systemPrefersDark(false)
    expect(initialTheme()).toBe('light')
  })
})
