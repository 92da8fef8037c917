/**
 * The strings of a parsed JSON value with the path to each, in document order (object keys in their own order,
 * arrays by position): `data.message.content[0].text`; keys that are not identifiers are quoted,
 * `data["a key"]`. Only string values are searched: keys, numbers and booleans are structure, not text.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

export function childPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`
  return `${parent}[${JSON.stringify(key)}]`
}

/**
 * Visit every string leaf of `value` under `path`; stop as soon as `visit` returns false.
 * @returns false when stopped early.
 */
export function forEachString(value: unknown, path: string, visit: (text: string, path: string) => boolean): boolean {
  if (typeof value === 'string') return visit(value, path)
  if (typeof value !== 'object' || value === null) return true
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!forEachString(value[i], `${path}[${i}]`, visit)) return false
    return true
  }
  for (const key of Object.keys(value)) {
    if (!forEachString((value as Record<string, unknown>)[key], childPath(path, key), visit)) return false
  }
  return true
}
