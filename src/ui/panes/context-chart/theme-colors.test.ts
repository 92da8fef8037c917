// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { themeChartColors } from './theme-colors.ts'

const TOKENS = ['accent', 'ink', 'muted', 'line', 'panel', 'user', 'assistant', 'search', 'warn', 'danger', 'focus']

function setTokens(root: HTMLElement, color: string, skip: string[] = []): void {
  for (const name of TOKENS) {
    if (skip.includes(name)) root.style.removeProperty(`--color-${name}`)
    else root.style.setProperty(`--color-${name}`, `${color}-${name}`)
  }
}

describe('themeChartColors', () => {
  afterEach(() => {
    document.documentElement.removeAttribute('style')
    document.documentElement.removeAttribute('data-theme')
  })

  it('reads the theme tokens once per theme, and again when data-theme changes', () => {
    const root = document.documentElement
    root.setAttribute('data-theme', 'light')
    setTokens(root, 'light')
    const first = themeChartColors(root)
    expect(first.ink).toBe('light-ink')
    expect(first.prune).toBe('light-danger')
    // Kept: the same object, even though the tokens changed underneath without a theme change.
    setTokens(root, 'other')
    expect(themeChartColors(root)).toBe(first)
    root.setAttribute('data-theme', 'dark')
    setTokens(root, 'dark')
    const dark = themeChartColors(root)
    expect(dark).not.toBe(first)
    expect(dark.ink).toBe('dark-ink')
    expect(dark.cursor).toBe('dark-focus')
  })

  it('does not keep a read that fell back on a missing token (the stylesheet not applied yet)', () => {
    const root = document.documentElement
    root.setAttribute('data-theme', 'sepia')
    setTokens(root, 'early', ['ink'])
    const early = themeChartColors(root)
    expect(early.ink).toBe('#222')
    setTokens(root, 'late')
    const late = themeChartColors(root)
    expect(late.ink).toBe('late-ink')
    expect(themeChartColors(root)).toBe(late)
  })
})
