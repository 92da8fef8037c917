/**
 * A span's steps as `secrets --json` and the viewer name them: `2.1–4.3`, `2.1` for one, null for none. A file of its
 * own so the page can name steps without the step locator.
 */

export function stepsLabel(
  first: { readonly turn: number; readonly step: number } | null,
  last: { readonly turn: number; readonly step: number } | null,
): string | null {
  if (first === null || last === null) return null
  const a = `${first.turn}.${first.step}`
  const b = `${last.turn}.${last.step}`
  return a === b ? a : `${a}–${b}`
}
