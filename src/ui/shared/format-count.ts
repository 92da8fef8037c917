/**
 * `n.toLocaleString('en-US')` for the counts the panes show, without ICU: the first `toLocaleString` call in a page
 * initialises Chromium's locale data, a long task, and the first screen made that call while booting. Integers are
 * grouped here; anything else (rare: none of the panes' counts) still goes to `toLocaleString`, so the text is the same
 * either way.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n))
  let out = digits.length > 3 ? '' : digits
  if (digits.length > 3) {
    const head = digits.length % 3 || 3
    out = digits.slice(0, head)
    for (let i = head; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3)
  }
  return n < 0 || Object.is(n, -0) ? '-' + out : out
}
