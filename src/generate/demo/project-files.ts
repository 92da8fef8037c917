/**
 * The demo's workspace: "tabula", a small TypeScript CSV toolkit, as its files read before and after
 * the agent's edits. Tool results (read, grep, git diff) are derived from these texts, so a line
 * number the model quotes is the line number the file really has.
 */

export const WORKSPACE = '/home/dev/tabula'

/** src/csv/row.ts: the single-line field splitter every caller shares. */
export const ROW_TS = `export type Row = string[]

/**
 * Split one CSV line into fields. A field wrapped in double quotes may contain the delimiter;
 * a doubled quote inside it stands for one quote character.
 */
export function parseRow(line: string, delimiter = ','): Row {
  const fields: Row = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === delimiter) {
      fields.push(field)
      field = ''
    } else field += c
  }
  fields.push(field)
  return fields
}
`

const PARSE_HEAD = `import { parseRow, type Row } from './row.ts'

export interface ParseOptions {
  /** Field separator; a single character. */
  delimiter?: string
  /** Drop rows whose fields are all empty (blank lines). */
  skipEmpty?: boolean
}

/**
 * Split CSV text into rows. Quoted fields may contain the delimiter and escaped quotes (""),
 * but not line breaks: tabula's inputs are spreadsheet exports, which never emit them.
 */
export function parseCsv(text: string, options: ParseOptions = {}): Row[] {
  const delimiter = options.delimiter ?? ','
  const rows: Row[] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\n') continue
    const line = text.slice(start, text[i - 1] === '\\r' ? i - 1 : i)
    start = i + 1
    if (options.skipEmpty === true && line.trim() === '') continue
    rows.push(parseRow(line, delimiter))
  }
`

/** The edit that fixes parseCsv: the text after the last newline is a row too. */
export const PARSE_EDIT = {
  old: `    rows.push(parseRow(line, delimiter))
  }
  return rows
}`,
  new: `    rows.push(parseRow(line, delimiter))
  }
  // The last line has no terminator when the input does not end with a newline.
  const last = text.slice(start).replace(/\\r$/, '')
  if (last !== '' && !(options.skipEmpty === true && last.trim() === '')) rows.push(parseRow(last, delimiter))
  return rows
}`,
}

export const PARSE_TS_BEFORE = `${PARSE_HEAD}  return rows
}
`
export const PARSE_TS_AFTER = PARSE_TS_BEFORE.replace(PARSE_EDIT.old, PARSE_EDIT.new)

const PARSE_TEST_HEAD = `import { describe, expect, it } from 'vitest'
import { parseCsv } from '../src/csv/parse.ts'

describe('parseCsv', () => {
  it('splits rows on LF', () => {
    expect(parseCsv('id,name\\n1,Ada\\n')).toEqual([['id', 'name'], ['1', 'Ada']])
  })

  it('splits rows on CRLF', () => {
    expect(parseCsv('id,name\\r\\n1,Ada\\r\\n')).toEqual([['id', 'name'], ['1', 'Ada']])
  })

  it('keeps quoted delimiters inside a field', () => {
    expect(parseCsv('"Lovelace, Ada",1815\\n')).toEqual([['Lovelace, Ada', '1815']])
  })

  it('unescapes doubled quotes', () => {
    expect(parseCsv('"say ""hi""",x\\n')).toEqual([['say "hi"', 'x']])
  })

  it('honours a custom delimiter', () => {
    expect(parseCsv('a;b\\n1;2\\n', { delimiter: ';' })).toEqual([['a', 'b'], ['1', '2']])
  })

  it('skips blank lines when asked', () => {
    expect(parseCsv('a\\n\\nb\\n', { skipEmpty: true })).toEqual([['a'], ['b']])
  })
`

export const PARSE_TEST_EDIT = {
  old: `    expect(parseCsv('a\\n\\nb\\n', { skipEmpty: true })).toEqual([['a'], ['b']])
  })
})`,
  new: `    expect(parseCsv('a\\n\\nb\\n', { skipEmpty: true })).toEqual([['a'], ['b']])
  })

  it('keeps the last row when the input has no trailing newline', () => {
    expect(parseCsv('id,name\\n1,Ada\\n2,Grace')).toEqual([['id', 'name'], ['1', 'Ada'], ['2', 'Grace']])
  })

  it('keeps the last row of CRLF input without a trailing newline', () => {
    expect(parseCsv('id,name\\r\\n1,Ada\\r\\n2,Grace')).toEqual([['id', 'name'], ['1', 'Ada'], ['2', 'Grace']])
  })
})`,
}

export const PARSE_TEST_BEFORE = `${PARSE_TEST_HEAD}})
`
export const PARSE_TEST_AFTER = PARSE_TEST_BEFORE.replace(PARSE_TEST_EDIT.old, PARSE_TEST_EDIT.new)

const STREAM_END_BEFORE = `  /** Call once the input is exhausted. */
  end(): number {
    return this.lineCount
  }`

export const STREAM_EDIT = {
  old: STREAM_END_BEFORE,
  new: `  /** Call once the input is exhausted: the last line may have no terminator. */
  end(): number {
    if (this.buffer !== '') this.emit(this.buffer.replace(/\\r$/, ''))
    this.buffer = ''
    return this.lineCount
  }`,
}

/** src/import/stream.ts: the incremental reader behind \`tabula import --stream\`. */
export const STREAM_TS_BEFORE = `import { parseRow, type Row } from '../csv/row.ts'

/**
 * Incremental CSV reader for \`tabula import --stream\`: feed it chunks as they arrive from the
 * file stream; it calls onRow once per complete line and keeps the rest buffered.
 */
export class RowStream {
  private buffer = ''
  private lineCount = 0

  constructor(
    private readonly onRow: (row: Row, line: number) => void,
    private readonly delimiter = ',',
  ) {}

  /** Feed the next chunk; rows are emitted as soon as their line is complete. */
  push(chunk: string): void {
    this.buffer += chunk
    let newline = this.buffer.indexOf('\\n')
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\\r$/, '')
      this.buffer = this.buffer.slice(newline + 1)
      this.emit(line)
      newline = this.buffer.indexOf('\\n')
    }
  }

${STREAM_END_BEFORE}

  private emit(line: string): void {
    this.lineCount++
    if (line !== '') this.onRow(parseRow(line, this.delimiter), this.lineCount)
  }
}
`

export const STREAM_TEST_EDIT = {
  old: `    expect(stream.end()).toBe(3)
  })
})`,
  new: `    expect(stream.end()).toBe(3)
  })

  it('flushes the last line when the input has no trailing newline', () => {
    expect(collect(['id,name\\n1,Ada\\n', '2,Gra', 'ce'])).toEqual([['id', 'name'], ['1', 'Ada'], ['2', 'Grace']])
  })
})`,
}

export const STREAM_TEST_BEFORE = `import { describe, expect, it } from 'vitest'
import { RowStream } from '../src/import/stream.ts'

function collect(chunks: string[]): string[][] {
  const rows: string[][] = []
  const stream = new RowStream((row) => rows.push(row))
  for (const chunk of chunks) stream.push(chunk)
  stream.end()
  return rows
}

describe('RowStream', () => {
  it('emits a row per complete line', () => {
    expect(collect(['id,name\\n1,Ada\\n'])).toEqual([['id', 'name'], ['1', 'Ada']])
  })

  it('joins a line split across chunks', () => {
    expect(collect(['id,na', 'me\\n1,A', 'da\\n'])).toEqual([['id', 'name'], ['1', 'Ada']])
  })

  it('counts lines including blank ones', () => {
    const stream = new RowStream(() => {})
    stream.push('a\\n\\nb\\n')
    expect(stream.end()).toBe(3)
  })
})
`

/** src/cli/preview.ts: \`tabula preview\`, a parseRow caller that needs no change. */
export const PREVIEW_TS = `import { readFile } from 'node:fs/promises'
import { parseCsv } from '../csv/parse.ts'
import { parseRow } from '../csv/row.ts'
import { formatTable } from './table.ts'

/** The text up to the first line break (all of it when there is none). */
function firstLine(text: string): string {
  const end = text.indexOf('\\n')
  return (end < 0 ? text : text.slice(0, end)).replace(/\\r$/, '')
}

/** \`tabula preview FILE [--rows N]\`: the header and the first rows, as a table. */
export async function preview(file: string, options: { rows?: number; delimiter?: string } = {}): Promise<string> {
  const text = await readFile(file, 'utf8')
  // The header alone decides the column count, so parse it without splitting the whole file;
  // the body rows go through parseCsv like every other reader.
  const header = parseRow(firstLine(text), options.delimiter)
  const body = parseCsv(text, { delimiter: options.delimiter, skipEmpty: true }).slice(1, 1 + (options.rows ?? 10))
  return formatTable(header, body)
}
`

/** test/row.test.ts: parseRow on single lines. */
export const ROW_TEST = `import { describe, expect, it } from 'vitest'
import { parseRow } from '../src/csv/row.ts'

describe('parseRow', () => {
  it('splits on the delimiter', () => {
    expect(parseRow('a,b,c')).toEqual(['a', 'b', 'c'])
  })

  it('keeps a quoted delimiter', () => {
    expect(parseRow('"a,b",c')).toEqual(['a,b', 'c'])
  })

  it('takes another delimiter', () => {
    expect(parseRow('a;b', ';')).toEqual(['a', 'b'])
  })
})
`

const IMPORT_OPTIONS_BEFORE = `export interface ImportOptions {
  delimiter?: string
  /** Skip blank lines instead of importing them as empty rows. */
  skipEmpty?: boolean
}`

const IMPORT_BODY_BEFORE = `  const text = await readFile(file, 'utf8')
  const [header = [], ...rows] = parseCsv(text, { delimiter: options.delimiter, skipEmpty: options.skipEmpty ?? true })
  return { header, rows }`

const IMPORT_ARGS_BEFORE = `    else if (arg === '--keep-empty') options.skipEmpty = false`

/** src/cli/import.ts: \`tabula import\`, where turn 3 adds \`--strict\`. */
export const IMPORT_TS_BEFORE = `import { readFile } from 'node:fs/promises'
import { parseCsv } from '../csv/parse.ts'
import type { Row } from '../csv/row.ts'

${IMPORT_OPTIONS_BEFORE}

export interface ImportResult {
  header: Row
  rows: Row[]
}

/** \`tabula import FILE\`: the header row and the data rows of a CSV file. */
export async function importCsv(file: string, options: ImportOptions = {}): Promise<ImportResult> {
${IMPORT_BODY_BEFORE}
}

export function parseImportArgs(argv: string[]): { file: string; options: ImportOptions } {
  const options: ImportOptions = {}
  let file: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--delimiter') options.delimiter = argv[++i]
${IMPORT_ARGS_BEFORE}
    else if (arg?.startsWith('--')) throw new Error(\`unknown option \${arg}\`)
    else file = arg
  }
  if (file === undefined) throw new Error('usage: tabula import FILE [--delimiter C] [--keep-empty] [--strict]')
  return { file, options }
}
`

export const IMPORT_OPTIONS_EDIT = {
  old: IMPORT_OPTIONS_BEFORE,
  new: `export interface ImportOptions {
  delimiter?: string
  /** Skip blank lines instead of importing them as empty rows. */
  skipEmpty?: boolean
  /** Fail on the first data row whose field count differs from the header's. */
  strict?: boolean
}`,
}

export const IMPORT_ARGS_EDIT = {
  old: IMPORT_ARGS_BEFORE,
  new: `    else if (arg === '--keep-empty') options.skipEmpty = false
    else if (arg === '--strict') options.strict = true`,
}

/** First attempt: line = row index + 2, which is wrong once blank lines are skipped. */
export const IMPORT_BODY_EDIT_1 = {
  old: IMPORT_BODY_BEFORE,
  new: `  const text = await readFile(file, 'utf8')
  const [header = [], ...rows] = parseCsv(text, { delimiter: options.delimiter, skipEmpty: options.skipEmpty ?? true })
  if (options.strict === true) {
    rows.forEach((row, i) => {
      // +2: the header is line 1 and lines are 1-based.
      if (row.length !== header.length) throw new Error(\`\${file}:\${i + 2}: expected \${header.length} fields, found \${row.length}\`)
    })
  }
  return { header, rows }`,
}

/** The fix: strict mode parses blank lines too, so the row index is the line index; it skips them itself. */
export const IMPORT_BODY_EDIT_2 = {
  old: IMPORT_BODY_EDIT_1.new,
  new: `  const text = await readFile(file, 'utf8')
  if (options.strict !== true) {
    const [header = [], ...rows] = parseCsv(text, { delimiter: options.delimiter, skipEmpty: options.skipEmpty ?? true })
    return { header, rows }
  }
  // Strict mode keeps blank lines while checking, so a row's index is its line number minus one.
  const [header = [], ...lines] = parseCsv(text, { delimiter: options.delimiter })
  const rows: Row[] = []
  lines.forEach((row, i) => {
    if (row.length === 1 && row[0] === '' && options.skipEmpty !== false) return
    if (row.length !== header.length) throw new Error(\`\${file}:\${i + 2}: expected \${header.length} fields, found \${row.length}\`)
    rows.push(row)
  })
  return { header, rows }`,
}

export const IMPORT_TEST_EDIT = {
  old: `      options: { delimiter: ';', skipEmpty: false },
    })
  })
})`,
  new: `      options: { delimiter: ';', skipEmpty: false },
    })
  })

  it('--strict rejects a row with the wrong number of fields, naming its line', async () => {
    const file = await csvFile('id,name\\n1,Ada\\n\\n2,Grace,extra\\n')
    await expect(importCsv(file, { strict: true })).rejects.toThrow(\`\${file}:4: expected 2 fields, found 3\`)
  })

  it('without --strict, ragged rows are imported as they are', async () => {
    const result = await importCsv(await csvFile('id,name\\n1\\n'))
    expect(result.rows).toEqual([['1']])
  })

  it('parses --strict', () => {
    expect(parseImportArgs(['data.csv', '--strict']).options).toEqual({ strict: true })
  })
})`,
}

export const IMPORT_TEST_BEFORE = `import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCsv, parseImportArgs } from '../src/cli/import.ts'

async function csvFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tabula-'))
  const file = join(dir, 'data.csv')
  await writeFile(file, text)
  return file
}

describe('tabula import', () => {
  it('returns the header and the data rows', async () => {
    const result = await importCsv(await csvFile('id,name\\n1,Ada\\n2,Grace\\n'))
    expect(result).toEqual({ header: ['id', 'name'], rows: [['1', 'Ada'], ['2', 'Grace']] })
  })

  it('parses --delimiter and --keep-empty', () => {
    expect(parseImportArgs(['data.csv', '--delimiter', ';', '--keep-empty'])).toEqual({
      file: 'data.csv',
      options: { delimiter: ';', skipEmpty: false },
    })
  })
})
`
export const IMPORT_TEST_AFTER = IMPORT_TEST_BEFORE.replace(IMPORT_TEST_EDIT.old, IMPORT_TEST_EDIT.new)

export const CHANGELOG_MD = `# Changelog

All notable changes to tabula are documented here. The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and tabula uses semantic versioning.

## 1.4.0 — 2026-07-21

### Added
- \`tabula preview FILE [--rows N]\` prints the header and the first rows as a table.
- \`--delimiter\` accepts \`\\t\` for tab-separated files.

### Fixed
- Quoted fields ending in a doubled quote (\`"a """\`) no longer lose the final quote.

## 1.3.2 — 2026-06-30

### Fixed
- \`tabula import\` no longer reads the whole file twice when \`--keep-empty\` is given.
`

export const PACKAGE_JSON = `{
  "name": "tabula",
  "version": "1.4.0",
  "description": "Parse, stream-import and preview CSV files",
  "type": "module",
  "bin": { "tabula": "./dist/cli/main.js" },
  "scripts": {
    "build": "tsc -p tsconfig.json",
    "test": "vitest run --reporter=verbose"
  },
  "devDependencies": {
    "@types/node": "20.19.43",
    "typescript": "5.9.3",
    "vitest": "4.1.12"
  }
}
`
