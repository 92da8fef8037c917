/**
 * JSON with the line of every value: a rates file that is wrong must be refused with one sentence naming the line and
 * the field, and `JSON.parse` gives neither (nor, in Node 20, even the line of a syntax error). Strict JSON, as
 * `JSON.parse` reads it; strings are decoded by `JSON.parse` itself so every escape means what it means there.
 */

export type JsonPath = readonly (string | number)[]

export interface ParsedJson {
  readonly value: unknown
  /** The 1-based line where the value at `path` starts (the closest enclosing value's line when there is none). */
  lineOf(path: JsonPath): number
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`)
  }
}

/** `rates[3].USD.peak` from `['rates', 3, 'USD', 'peak']`: how a sentence names a field. */
export function pathText(path: JsonPath): string {
  let out = ''
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`
  return out === '' ? 'the top level' : out
}

const key = (path: JsonPath): string => JSON.stringify(path)

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
// eslint-disable-next-line no-control-regex -- a raw control character is exactly what JSON refuses in a string.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y

export function parseJsonWithLines(text: string): ParsedJson {
  const lines = new Map<string, number>()
  let at = 0
  let line = 1
  const fail = (reason: string): never => {
    throw new JsonSyntaxError(line, reason)
  }
  const space = (): void => {
    for (; at < text.length; at++) {
      const c = text[at]
      if (c === '\n') line++
      else if (c !== ' ' && c !== '\t' && c !== '\r') return
    }
  }
  /** The token at `at` as the sentence shows it: a string whole (up to 40 characters), else up to the next space. */
  const shown = (): string => {
    if (at >= text.length) return 'the end of the file'
    STRING.lastIndex = at
    const token =
      (text[at] === '"' ? STRING.exec(text)?.[0] : undefined) ?? /^[^\s,:{}[\]]{1,12}|^./.exec(text.slice(at))?.[0] ?? ''
    return token.startsWith('"') ? (token.length > 40 ? `${token.slice(0, 39)}…"` : token) : `"${token}"`
  }
  const string = (): string => {
    STRING.lastIndex = at
    const match = STRING.exec(text)
    if (match === null) fail(`a string is not closed or holds a raw control character near ${shown()}`)
    at = STRING.lastIndex
    return JSON.parse((match as RegExpExecArray)[0]) as string
  }
  const value = (path: (string | number)[]): unknown => {
    space()
    lines.set(key(path), line)
    const c = text[at]
    if (c === '{') {
      at++
      const out: Record<string, unknown> = {}
      space()
      if (text[at] === '}') {
        at++
        return out
      }
      for (;;) {
        space()
        if (text[at] !== '"') fail(`expected a quoted field name, found ${shown()}`)
        const name = string()
        space()
        if (text[at] !== ':') fail(`expected ":" after "${name}", found ${shown()}`)
        at++
        if (Object.hasOwn(out, name)) fail(`the field "${name}" appears twice`)
        Object.defineProperty(out, name, { value: value([...path, name]), enumerable: true, writable: true, configurable: true })
        space()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === '}') {
          at++
          return out
        }
        fail(`expected "," or "}" after the value of "${name}", found ${shown()}`)
      }
    }
    if (c === '[') {
      at++
      const out: unknown[] = []
      space()
      if (text[at] === ']') {
        at++
        return out
      }
      for (;;) {
        out.push(value([...path, out.length]))
        space()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === ']') {
          at++
          return out
        }
        fail(`expected "," or "]" in a list, found ${shown()}`)
      }
    }
    if (c === '"') return string()
    for (const [word, literal] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length
        return literal
      }
    }
    NUMBER.lastIndex = at
    const number = NUMBER.exec(text)
    if (number === null) return fail(`expected a value, found ${shown()}`)
    at = NUMBER.lastIndex
    return Number(number[0])
  }
  // A byte-order mark is not JSON, but editors write one: skip it as JSON.parse does not.
  if (text.charCodeAt(0) === 0xfeff) at = 1
  const parsed = value([])
  space()
  if (at < text.length) fail(`unexpected ${shown()} after the end of the JSON value`)
  return {
    value: parsed,
    lineOf(path: JsonPath): number {
      for (let n = path.length; n >= 0; n--) {
        const found = lines.get(key(path.slice(0, n)))
        if (found !== undefined) return found
      }
      return 1
    },
  }
}
