/**
 * What vitest prints in the demo's workspace: the failing runs (assertion diff and code frame taken
 * from the test file's real text) and the passing suites, whose size grows as tests are added.
 */

import { IMPORT_TEST_AFTER, PARSE_TEST_AFTER, WORKSPACE } from './project-files.ts'

const RULE = '⎯'.repeat(7)
const LONG_RULE = '⎯'.repeat(53)

/** The suite outside the files the session touches, as `--reporter=verbose` names it. */
const OTHER_SUITES: readonly (readonly [string, readonly string[]])[] = [
  [
    'test/row.test.ts',
    ['parseRow > splits on the delimiter', 'parseRow > keeps a quoted delimiter', 'parseRow > takes another delimiter'],
  ],
  [
    'test/preview.test.ts',
    [
      'tabula preview > prints the header and the first ten rows',
      'tabula preview > honours --rows',
      'tabula preview > pads short rows with empty cells',
      'tabula preview > reads a file without a trailing newline',
      'tabula preview > rejects a missing file with ENOENT',
    ],
  ],
  [
    'test/table.test.ts',
    [
      'formatTable > aligns columns to the widest cell',
      'formatTable > right-aligns numeric columns',
      'formatTable > truncates cells longer than 40 characters',
      'formatTable > counts wide characters as two columns',
      'formatTable > draws the header rule',
      'formatTable > prints an empty table as the header only',
      'formatTable > escapes control characters',
      'formatTable > keeps trailing spaces visible',
      'formatTable > wraps nothing when --no-truncate is set',
    ],
  ],
  [
    'test/export.test.ts',
    [
      'toCsv > quotes fields containing the delimiter',
      'toCsv > doubles embedded quotes',
      'toCsv > quotes fields with leading or trailing spaces',
      'toCsv > writes CRLF when asked',
      'toCsv > ends the output with a newline',
      'toCsv > round-trips through parseCsv',
      'toCsv > writes numbers without exponent notation',
      'toCsv > writes null and undefined as empty fields',
      'exportFile > writes atomically through a temp file',
      'exportFile > refuses to overwrite without --force',
      'exportFile > keeps the mode of an existing file',
      'exportFile > reports the number of rows written',
    ],
  ],
  [
    'test/delimiter.test.ts',
    [
      'detectDelimiter > picks comma for plain CSV',
      'detectDelimiter > picks semicolon for European exports',
      'detectDelimiter > picks tab for TSV',
      'detectDelimiter > ignores delimiters inside quotes',
      'detectDelimiter > falls back to comma on a single column',
      'parseDelimiterArg > accepts \\t',
      'parseDelimiterArg > rejects multi-character delimiters',
    ],
  ],
  [
    'test/encoding.test.ts',
    [
      'decodeInput > strips a UTF-8 BOM',
      'decodeInput > decodes UTF-16LE with a BOM',
      'decodeInput > decodes UTF-16BE with a BOM',
      'decodeInput > falls back to latin1 on invalid UTF-8',
      'decodeInput > keeps valid UTF-8 without a BOM',
      'decodeInput > reports the detected encoding',
      'decodeInput > handles an empty file',
      'decodeInput > does not split a surrogate pair across chunks',
      'decodeInput > normalises NFC when asked',
      'decodeInput > leaves NFD alone by default',
      'decodeInput > rejects binary input with a clear error',
    ],
  ],
]

const PARSE_TESTS_BEFORE = [
  'parseCsv > splits rows on LF',
  'parseCsv > splits rows on CRLF',
  'parseCsv > keeps quoted delimiters inside a field',
  'parseCsv > unescapes doubled quotes',
  'parseCsv > honours a custom delimiter',
  'parseCsv > skips blank lines when asked',
]
const PARSE_TESTS_NEW = [
  'parseCsv > keeps the last row when the input has no trailing newline',
  'parseCsv > keeps the last row of CRLF input without a trailing newline',
]
const STREAM_TESTS_BEFORE = [
  'RowStream > emits a row per complete line',
  'RowStream > joins a line split across chunks',
  'RowStream > counts lines including blank ones',
]
const STREAM_TESTS_NEW = ['RowStream > flushes the last line when the input has no trailing newline']
const IMPORT_TESTS_BEFORE = [
  'tabula import > returns the header and the data rows',
  'tabula import > parses --delimiter and --keep-empty',
]
const IMPORT_TESTS_NEW = [
  'tabula import > --strict rejects a row with the wrong number of fields, naming its line',
  'tabula import > without --strict, ragged rows are imported as they are',
  'tabula import > parses --strict',
]

/** How far the session has got: which of its new tests exist. */
export type SuiteStage = 'parse-fixed' | 'stream-fixed' | 'strict-added'

function suites(stage: SuiteStage): (readonly [string, readonly string[]])[] {
  const stream = stage === 'parse-fixed' ? STREAM_TESTS_BEFORE : [...STREAM_TESTS_BEFORE, ...STREAM_TESTS_NEW]
  const imports = stage === 'strict-added' ? [...IMPORT_TESTS_BEFORE, ...IMPORT_TESTS_NEW] : IMPORT_TESTS_BEFORE
  return [
    ['test/parse.test.ts', [...PARSE_TESTS_BEFORE, ...PARSE_TESTS_NEW]],
    ['test/stream.test.ts', stream],
    ['test/cli-import.test.ts', imports],
    ...OTHER_SUITES,
  ]
}

/** Test count of the whole suite at a stage (the final answers quote it). */
export function testCount(stage: SuiteStage): number {
  return suites(stage).reduce((n, [, tests]) => n + tests.length, 0)
}

/** A deterministic duration for a test name, so the log looks measured but never changes. */
function ms(name: string): number {
  let h = 0
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0
  return h % 17 === 0 ? 10 + (h % 40) : h % 4
}

function footer(files: number, tests: number, start: string, failed = 0, failedFiles = 0): string {
  // Vitest leaves out a zero count: "1 failed (1)", not "1 failed | 0 passed (1)".
  const count = (bad: number, all: number): string =>
    [bad > 0 ? `${bad} failed` : '', bad < all ? `${all - bad} passed` : ''].filter((x) => x !== '').join(' | ') + ` (${all})`
  const fileLine = count(failedFiles, files)
  const testLine = count(failed, tests)
  return [
    ` Test Files  ${fileLine}`,
    `      Tests  ${testLine}`,
    `   Start at  ${start}`,
    `   Duration  ${(0.9 + tests / 100).toFixed(2)}s (transform 412ms, setup 0ms, collect 655ms, tests ${tests + 36}ms, environment 2ms, prepare 1.02s)`,
  ].join('\n')
}

/** `npm test` (vitest run --reporter=verbose): every test on its own line; the demo's big tool result. */
export function fullSuiteOutput(stage: SuiteStage, start: string): string {
  const all = suites(stage)
  const lines = ['', '> tabula@1.4.0 test', '> vitest run --reporter=verbose', '', '', ` RUN  v4.1.12 ${WORKSPACE}`, '']
  for (const [file, tests] of all) {
    for (const test of tests) lines.push(` ✓ ${file} > ${test} ${ms(test)}ms`)
    if (file === 'test/export.test.ts') {
      lines.push('', 'stderr | test/export.test.ts > exportFile > refuses to overwrite without --force')
      lines.push('tabula: out.csv exists; pass --force to overwrite it', '')
    }
  }
  const count = all.reduce((n, [, tests]) => n + tests.length, 0)
  lines.push('', footer(all.length, count, start), '')
  return lines.join('\n')
}

/** Vitest's code frame: two lines of context around the failing line, a caret under the column. */
function codeFrame(text: string, line: number, column: number): string {
  const lines = text.split('\n')
  const out: string[] = []
  for (let n = line - 2; n <= line + 2; n++) {
    const source = lines[n - 1]
    if (source === undefined) continue
    out.push(`    ${String(n).padStart(3)}| ${source}`.trimEnd())
    if (n === line) out.push(`       | ${' '.repeat(column - 1)}^`)
  }
  return out.join('\n')
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1
}

const MISSING_ROW_DIFF = `- Expected
+ Received

  [
    [
      "id",
      "name",
    ],
    [
      "1",
      "Ada",
    ],
-   [
-     "2",
-     "Grace",
-   ],
  ]`

/** `npx vitest run test/parse.test.ts` with the two new tests and the old parser: both miss the last row. */
export function parseTestFailure(): string {
  const received = "expected [ [ 'id', 'name' ], [ '1', 'Ada' ] ] to deeply equal [ [ 'id', 'name' ], …(2) ]"
  const failure = (name: string, needle: string): string => {
    const line = lineOf(PARSE_TEST_AFTER, needle)
    const column = (PARSE_TEST_AFTER.split('\n')[line - 1] ?? '').indexOf('.toEqual') + 2
    return [
      ` FAIL  test/parse.test.ts > ${name}`,
      `AssertionError: ${received}`,
      '',
      MISSING_ROW_DIFF,
      '',
      ` ❯ test/parse.test.ts:${line}:${column}`,
      codeFrame(PARSE_TEST_AFTER, line, column),
      '',
      `${LONG_RULE}[${PARSE_TESTS_NEW.indexOf(name) + 1}/2]${RULE}`,
      '',
    ].join('\n')
  }
  const listed = [...PARSE_TESTS_BEFORE.map((t) => `   ✓ ${t} ${ms(t)}ms`)]
  for (const t of PARSE_TESTS_NEW) listed.push(`   × ${t} ${ms(t) + 2}ms`, `     → ${received}`)
  return [
    '',
    ` RUN  v4.1.12 ${WORKSPACE}`,
    '',
    ' ❯ test/parse.test.ts (8 tests | 2 failed) 11ms',
    ...listed,
    '',
    `${RULE} Failed Tests 2 ${RULE}`,
    '',
    failure(PARSE_TESTS_NEW[0] as string, "parseCsv('id,name\\n1,Ada\\n2,Grace')"),
    failure(PARSE_TESTS_NEW[1] as string, "parseCsv('id,name\\r\\n1,Ada\\r\\n2,Grace')"),
    footer(1, 8, '10:14:03', 2, 1),
    '',
  ].join('\n')
}

const TMP_CSV = '/tmp/tabula-hM2qZx/data.csv'

/** `npx vitest run test/cli-import.test.ts` with the first --strict attempt: the line number is one short. */
export function strictTestFailure(): string {
  const name = IMPORT_TESTS_NEW[0] as string
  const line = lineOf(IMPORT_TEST_AFTER, '.rejects.toThrow(')
  const column = (IMPORT_TEST_AFTER.split('\n')[line - 1] ?? '').indexOf('.rejects') + 2
  const expected = `${TMP_CSV}:4: expected 2 fields, found 3`
  const listed = [...IMPORT_TESTS_BEFORE, ...IMPORT_TESTS_NEW].map((t) =>
    t === name ? `   × ${t} 12ms\n     → expected error to include '${expected}'` : `   ✓ ${t} ${ms(t)}ms`,
  )
  return [
    '',
    ` RUN  v4.1.12 ${WORKSPACE}`,
    '',
    ' ❯ test/cli-import.test.ts (5 tests | 1 failed) 31ms',
    ...listed,
    '',
    `${RULE} Failed Tests 1 ${RULE}`,
    '',
    ` FAIL  test/cli-import.test.ts > ${name}`,
    `AssertionError: expected error to include '${expected}'`,
    '',
    `Expected: "${expected}"`,
    `Received: "${TMP_CSV}:3: expected 2 fields, found 3"`,
    '',
    ` ❯ test/cli-import.test.ts:${line}:${column}`,
    codeFrame(IMPORT_TEST_AFTER, line, column),
    '',
    `${LONG_RULE}[1/1]${RULE}`,
    '',
    footer(1, 5, '10:41:26', 1, 1),
    '',
  ].join('\n')
}

/** `npx vitest run test/stream.test.ts test/parse.test.ts` after the RowStream fix. */
export function streamAndParsePass(): string {
  return [
    '',
    ` RUN  v4.1.12 ${WORKSPACE}`,
    '',
    ' ✓ test/parse.test.ts (8 tests) 6ms',
    ' ✓ test/stream.test.ts (4 tests) 4ms',
    '',
    footer(2, 12, '10:27:52'),
    '',
  ].join('\n')
}
