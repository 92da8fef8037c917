// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { themeChartColors, withAlpha } from './theme-colors.ts'

const TOKENS = ['accent', 'ink', 'muted', 'line', 'panel', 'user', 'assistant', 'search', 'warn', 'danger', 'focus', 'tool']

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

describe('withAlpha', () => {
  it('adds an alpha to every colour function the computed style may give (Chromium converts oklch tokens to lab)', () => {
    expect(
      [
        'oklch(0.52 0.16 275)',
        'lab(42.3037% 20.2092 -56.685)',
        'rgb(10 20 30)',
        'rgb(10, 20, 30)',
        'hsl(10, 20%, 30%)',
        '#123456',
      ].map((c) => withAlpha(c, 0.35)),
    ).toStrictEqual([
      'oklch(0.52 0.16 275 / 0.35)',
      'lab(42.3037% 20.2092 -56.685 / 0.35)',
      'rgb(10 20 30 / 0.35)',
      'rgba(10, 20, 30, 0.35)',
      'hsla(10, 20%, 30%, 0.35)',
      '#123456',
    ])
  })
})
