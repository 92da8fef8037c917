/**
 * A provider-independent token estimate: the UTF-8 size of a value's JSON divided by four (the usual
 * bytes-per-token rule of thumb for English text and code). It is deliberately simple and the same
 * everywhere (context chart, request view), so two views never disagree; it is an *estimate*, and the
 * UI says so next to any logged token count.
 */

/** UTF-8 byte length of a string, without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) continue
    if (c < 0x800) bytes += 1
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}

/** Estimated tokens of a value as sent: ceil(UTF-8 bytes of its JSON / 4); 0 for what JSON cannot carry. */
export function estimateTokens(value: unknown): number {
  const json = JSON.stringify(value) as string | undefined
  return json === undefined ? 0 : Math.ceil(utf8Length(json) / 4)
}
