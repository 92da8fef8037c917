/**
 * The demo conversation: four requests in the "tabula" workspace. A bug fix driven by a failing test,
 * a subagent sweep for the same bug elsewhere, a new `--strict` option (whose first version fails its
 * test), and a last request that runs out of output tokens. Context maintenance is scripted where a
 * real session would need it: a prune of a long test log, a `/compact`, and an automatic compaction
 * that swallows the first summary.
 */

import * as f from './project-files.ts'
import type { ChildSpec, TurnSpec } from './script-types.ts'
import { fullSuiteOutput, parseTestFailure, streamAndParsePass, strictTestFailure, testCount } from './test-outputs.ts'
import { diffStat, editResult, grepResult, readResult, unifiedDiff } from './workspace-tools.ts'

const read = (path: string, text: string) => ({
  name: 'read',
  args: { file_path: path },
  result: readResult(path, text),
  runtimeMs: 6,
})
const edit = (path: string, change: { old: string; new: string }) => ({
  name: 'edit',
  args: { file_path: path, old_string: change.old, new_string: change.new },
  result: editResult(path),
  runtimeMs: 9,
})
const bash = (command: string, description: string, result: string, runtimeMs: number, key?: string) => ({
  name: 'bash',
  args: { command, description },
  result,
  runtimeMs,
  ...(key === undefined ? {} : { key }),
})

/** 1-based line of the first line containing `needle`: quoted line numbers follow the file texts. */
const lineNo = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1

const PARSE = 'src/csv/parse.ts'
const ROW = 'src/csv/row.ts'
const STREAM = 'src/import/stream.ts'
const PREVIEW = 'src/cli/preview.ts'
const IMPORT = 'src/cli/import.ts'
const PARSE_TEST = 'test/parse.test.ts'
const STREAM_TEST = 'test/stream.test.ts'
const IMPORT_TEST = 'test/cli-import.test.ts'

const TURN1_DIFF = [
  diffStat([
    [PARSE, f.PARSE_TS_BEFORE, f.PARSE_TS_AFTER],
    [PARSE_TEST, f.PARSE_TEST_BEFORE, f.PARSE_TEST_AFTER],
  ]),
  unifiedDiff(PARSE, f.PARSE_TS_BEFORE, f.PARSE_TS_AFTER, '3b1f0c2..9e47a15'),
  unifiedDiff(PARSE_TEST, f.PARSE_TEST_BEFORE, f.PARSE_TEST_AFTER, 'a52c7d0..41d9be3'),
].join('\n')

/** The subagent's task: every caller of parseRow, checked for the same end-of-input bug. */
export const CALLERS_CHILD: ChildSpec = {
  label: 'Find every caller of parseRow',
  prompt:
    'Find every call site of `parseRow` in /home/dev/tabula (src/ and test/). For each one, report the file and line, ' +
    'how that caller splits its input into lines, and whether the last line is still parsed when the input does not ' +
    'end with a newline. Do not edit any files; just report.',
  steps: [
    {
      reasoning:
        'I need every call site of parseRow. A grep over src and test gives the list; then I read each caller to see how it ' +
        'splits its input into lines, because that is where an unterminated last line could be lost.',
      calls: [
        {
          name: 'grep',
          args: { pattern: 'parseRow\\(', path: '.', glob: '*.ts' },
          result: grepResult(/parseRow\(/, [
            [PREVIEW, f.PREVIEW_TS],
            [PARSE, f.PARSE_TS_AFTER],
            [ROW, f.ROW_TS],
            [STREAM, f.STREAM_TS_BEFORE],
            ['test/row.test.ts', f.ROW_TEST],
          ]),
          runtimeMs: 38,
        },
      ],
    },
    {
      reasoning:
        'parseCsv already parses the text after its last newline (line 27 handles the unterminated last line). Apart from ' +
        'it and the tests there are two real callers: RowStream in src/import/stream.ts and the preview command in ' +
        'src/cli/preview.ts. I will read both.',
      calls: [read(STREAM, f.STREAM_TS_BEFORE), read(PREVIEW, f.PREVIEW_TS)],
    },
    {
      reasoning:
        'RowStream.push only emits a line once it has seen its newline, and end() just returns the line count, so whatever is ' +
        'still in this.buffer when the input ends is dropped: the same bug as parseCsv had. preview.ts only parses the header ' +
        'with firstLine(), which returns the whole text when there is no newline, and takes the body rows from parseCsv. ' +
        'test/row.test.ts parses single lines. That is everything; time to write the report.',
      text:
        '`parseRow` has three callers outside its own tests:\n\n' +
        `1. **src/csv/parse.ts:${lineNo(f.PARSE_TS_AFTER, 'rows.push(parseRow(line')} and :${lineNo(f.PARSE_TS_AFTER, 'rows.push(parseRow(last')}** ` +
        '(`parseCsv`) splits on `\\n` itself; the text after the last newline is parsed at line ' +
        `${lineNo(f.PARSE_TS_AFTER, 'rows.push(parseRow(last')}. **OK.**\n` +
        `2. **src/import/stream.ts:${lineNo(f.STREAM_TS_BEFORE, 'this.onRow(parseRow')}** (\`RowStream.emit\`, called from \`push\`): **same bug.** ` +
        '`push()` emits a line only once it ' +
        'has seen its `\\n`, and `end()` returns the line count without flushing `this.buffer`, so `tabula import --stream` ' +
        'silently drops the last line of a file without a trailing newline.\n' +
        `3. **src/cli/preview.ts:${lineNo(f.PREVIEW_TS, 'parseRow(firstLine')}** (\`tabula preview\`) ` +
        'parses only the header, via `firstLine()`, which returns the whole ' +
        'text when there is no newline; the body rows come from `parseCsv`. **OK.**\n\n' +
        '`test/row.test.ts` calls `parseRow` on single lines (3 cases) and does not depend on line splitting. No test feeds ' +
        '`RowStream` input without a final newline.',
    },
  ],
}

const SUMMARY_1 = `## Conversation summary

**Project:** tabula, a small TypeScript CSV toolkit in /home/dev/tabula (tests: vitest via \`npm test\`).

**Done so far** (nothing committed)
1. Fixed \`parseCsv\` (src/csv/parse.ts) dropping the last row when the input has no trailing newline: the loop only emitted a row on \`\\n\`. The text after the loop is now parsed as a final row (trailing \`\\r\` stripped, \`skipEmpty\` respected). Two regression tests in test/parse.test.ts (LF and CRLF input) failed before the fix and pass now. The line parser \`parseRow\` (src/csv/row.ts) was fine. Full suite green (${testCount('parse-fixed')} tests).
2. A subagent listed every caller of \`parseRow\`: \`parseCsv\`, \`RowStream\` (src/import/stream.ts) and \`tabula preview\` (src/cli/preview.ts). Only \`RowStream\` had the same bug (\`end()\` never flushed the buffered last line). Fixed, with a regression test in test/stream.test.ts that splits the last row across chunks.

**State:** all tests pass. No open questions from the user.`

const SUMMARY_2 = `## Conversation summary

**Project:** tabula, a small TypeScript CSV toolkit in /home/dev/tabula (tests: vitest via \`npm test\`).

**Done so far** (nothing committed)
1. \`parseCsv\` (src/csv/parse.ts) dropped the last row of input without a trailing newline; the text after the last newline is now parsed too. Regression tests in test/parse.test.ts.
2. \`RowStream.end()\` (src/import/stream.ts, behind \`tabula import --stream\`) had the same bug, found by a subagent that checked every \`parseRow\` caller; it now flushes the buffered last line. Regression test in test/stream.test.ts.
3. New \`tabula import --strict\` (src/cli/import.ts): fails with \`FILE:LINE: expected N fields, found M\` when a row's field count differs from the header's; without it, ragged rows are imported as before. Strict mode parses blank lines too, so the reported line number is exact (a first version was off by one after blank lines). Three tests in test/cli-import.test.ts.

**State:** all ${testCount('strict-added')} tests pass. The user's latest request: a CHANGELOG entry under a new 1.4.1 section, and the version bump in package.json.`

export const DEMO_TURNS: readonly TurnSpec[] = [
  {
    prompt:
      "`parseCsv` drops the last row when the file doesn't end with a newline: `tabula import data/orders.csv` reports 41 " +
      'rows, but the file has 42. Can you fix it and add a regression test?',
    steps: [
      {
        reasoning:
          'The user says the last row goes missing when the input has no trailing newline. That usually means rows are only ' +
          "emitted when the parser reaches a '\\n', and whatever is left at the end of the input is never parsed. Let me find " +
          'where rows are split before guessing.',
        calls: [
          {
            name: 'grep',
            args: { pattern: 'export function parse(Csv|Row)', path: 'src' },
            result: grepResult(/export function parse(Csv|Row)/, [
              [PARSE, f.PARSE_TS_BEFORE],
              [ROW, f.ROW_TS],
            ]),
            runtimeMs: 31,
          },
        ],
      },
      {
        reasoning:
          'parseCsv lives in src/csv/parse.ts and hands each line to parseRow in src/csv/row.ts. I will read both: the bug is ' +
          'most likely in how parseCsv walks the text, but parseRow could also be dropping something at the end of a line.',
        calls: [read(PARSE, f.PARSE_TS_BEFORE), read(ROW, f.ROW_TS)],
      },
      {
        reasoning:
          "Found it. The loop in parseCsv only pushes a row when it reaches a '\\n', so the text after the last newline is never " +
          "parsed: for 'id,name\\n1,Ada\\n2,Grace' the '2,Grace' line is lost. parseRow itself is fine, it works on one line at a " +
          'time. I will write the regression test first and watch it fail, then fix the loop.',
        calls: [
          {
            name: 'todo_write',
            args: {
              todos: [
                { content: 'Add a failing regression test for input without a trailing newline', status: 'in_progress' },
                { content: 'Parse the last line in parseCsv', status: 'pending' },
                { content: 'Run the full test suite', status: 'pending' },
              ],
            },
            todos: [
              { content: 'Add a failing regression test for input without a trailing newline', status: 'in_progress' },
              { content: 'Parse the last line in parseCsv', status: 'pending' },
              { content: 'Run the full test suite', status: 'pending' },
            ],
            result: 'Updated todo list: 2 pending, 1 in progress, 0 completed.',
          },
          read(PARSE_TEST, f.PARSE_TEST_BEFORE),
        ],
      },
      {
        reasoning:
          'Every existing case ends its input with a newline, which is why this never showed up. I will add two cases: LF input ' +
          "without a final newline, and the same with CRLF line endings, where the '\\r' must not end up in the last field.",
        calls: [edit(PARSE_TEST, f.PARSE_TEST_EDIT)],
      },
      {
        reasoning: 'Now run just this file, to confirm the new tests fail for the reason I expect and nothing else breaks.',
        calls: [bash('npx vitest run test/parse.test.ts', 'Run the parser tests', parseTestFailure(), 1_410)],
      },
      {
        reasoning:
          "Both new tests fail exactly as predicted: the received rows stop at '1,Ada', and the six old tests still pass. The " +
          "fix is to parse whatever is left after the loop. I will strip a trailing '\\r' so CRLF input behaves the same, keep " +
          'the skipEmpty rule for that last line, and skip it when it is empty (input that does end with a newline).',
        calls: [edit(PARSE, f.PARSE_EDIT)],
      },
      {
        reasoning:
          'Run the whole suite, not just this file: parseCsv is used by the importer, the preview command and the export ' +
          'round-trip tests, so a change here could shift row counts elsewhere.',
        calls: [bash('npm test', 'Run the full test suite', fullSuiteOutput('parse-fixed', '10:16:40'), 2_870, 'full-suite')],
      },
      {
        reasoning: `All ${testCount('parse-fixed')} tests pass, including the two new ones. Let me look at the whole diff before reporting back.`,
        calls: [bash('git diff --stat && git diff', 'Show the change', TURN1_DIFF, 48)],
      },
      {
        reasoning:
          'The diff is small and does what I intended. I should mention that the streaming importer has its own line ' +
          'splitting and may have the same problem, since the user imports files with tabula.',
        text:
          'Fixed. `parseCsv` (src/csv/parse.ts) only emitted a row when it reached a `\\n`, so the text after the last newline ' +
          'was never parsed: a file without a trailing newline lost its last row, which is why `orders.csv` came out one short.\n\n' +
          '- **Fix:** after the loop, the rest of the input is parsed as a final row (a trailing `\\r` is stripped and ' +
          '`skipEmpty` still applies).\n' +
          `- **Tests:** two regression cases in \`test/parse.test.ts\` (LF and CRLF input without a final newline). They failed ` +
          `before the fix and pass now; the full suite is green (${testCount('parse-fixed')} tests).\n\n` +
          '`parseRow` itself was fine. The streaming importer (`src/import/stream.ts`) splits lines on its own, so it may have ' +
          'the same problem. Want me to check it?',
      },
    ],
  },
  {
    prompt:
      'Yes please. Find everything that calls parseRow directly and check whether any of them has the same end-of-input ' +
      'bug. The streaming importer is what `tabula import --stream` uses for big files.',
    prune: {
      key: 'full-suite',
      note: `[tool output pruned to save context: ${fullSuiteOutput('parse-fixed', '10:16:40').split('\n').length} lines of \`npm test\` output. Summary line: Tests ${testCount('parse-fixed')} passed (${testCount('parse-fixed')}).]`,
    },
    steps: [
      {
        reasoning:
          'parseRow is the shared line parser, so every caller that splits lines itself is suspect. A subagent can sweep the ' +
          'repository for callers and read each one, and report back, which keeps my own context small.',
        calls: [
          {
            name: 'subagent',
            args: { description: CALLERS_CHILD.label, prompt: CALLERS_CHILD.prompt, run_in_background: false },
            subagent: CALLERS_CHILD,
          },
        ],
      },
      {
        reasoning:
          'The subagent confirms that the streaming importer has the same bug: RowStream.end() never flushes the buffered ' +
          'partial line. I will read the file and its tests myself before editing.',
        calls: [read(STREAM, f.STREAM_TS_BEFORE), read(STREAM_TEST, f.STREAM_TEST_BEFORE)],
      },
      {
        reasoning:
          'end() must emit what is left in the buffer, with the same CR handling as push(), and clear it so a second end() ' +
          'does not emit the line twice. For the test, a chunk boundary just before the end is the realistic case for big ' +
          'files, so it feeds the last row split across two chunks.',
        calls: [edit(STREAM, f.STREAM_EDIT), edit(STREAM_TEST, f.STREAM_TEST_EDIT)],
      },
      {
        reasoning: 'Run the stream tests together with the parser tests.',
        calls: [
          bash(
            'npx vitest run test/stream.test.ts test/parse.test.ts',
            'Run the stream and parser tests',
            streamAndParsePass(),
            1_120,
          ),
        ],
      },
      {
        reasoning: 'Both files pass, 12 tests. The other callers need no change, as the subagent reported.',
        text:
          'The streaming importer had the same bug, now fixed: `RowStream.end()` (src/import/stream.ts) returned without ' +
          'flushing the buffered partial line, so `tabula import --stream` lost the last row of files without a trailing ' +
          'newline. `end()` now emits what is left in the buffer (minus a trailing `\\r`) before returning the line count, and ' +
          '`test/stream.test.ts` has a regression case that feeds the last row split across two chunks.\n\n' +
          'The other callers are fine: `tabula preview` only parses the header line and handles input without a newline, and ' +
          '`test/row.test.ts` parses single lines. Both suites pass (12 tests).',
      },
    ],
  },
  {
    manualCompactBefore: { keepUnits: 1, summary: SUMMARY_1 },
    prompt:
      'Great. One more thing: add a `--strict` option to `tabula import` that fails with a clear error (file, line number, ' +
      'expected vs actual column count) when a row has a different number of fields than the header. Without `--strict`, ' +
      "keep today's behaviour.",
    steps: [
      {
        reasoning: 'I need the import command: its options, its argument parser and where the rows come from. And its test.',
        calls: [read(IMPORT, f.IMPORT_TS_BEFORE), read(IMPORT_TEST, f.IMPORT_TEST_BEFORE)],
      },
      {
        reasoning:
          'Plan: a strict flag in ImportOptions, parsed from --strict; in importCsv, compare every data row with the header ' +
          'and throw an error naming the file, the line and both counts. Data row i sits on line i + 2 (the header is line 1, ' +
          'and lines are 1-based). Tests: the error message, the lenient default, and the flag parsing.',
        calls: [
          edit(IMPORT_TEST, f.IMPORT_TEST_EDIT),
          edit(IMPORT, f.IMPORT_OPTIONS_EDIT),
          edit(IMPORT, f.IMPORT_BODY_EDIT_1),
          edit(IMPORT, f.IMPORT_ARGS_EDIT),
        ],
      },
      {
        reasoning: 'Run the import tests.',
        calls: [bash('npx vitest run test/cli-import.test.ts', 'Run the import tests', strictTestFailure(), 1_260)],
      },
      {
        reasoning:
          'The line number is one short: the test file has a blank line 3, which skipEmpty drops, so the bad row is data ' +
          'row 1 but line 4. Computing the line from the row index only works when nothing is skipped. In strict mode I ' +
          'will parse with skipEmpty off, so every line is a row and i + 2 is exact, and skip the blank rows myself.',
        calls: [edit(IMPORT, f.IMPORT_BODY_EDIT_2)],
      },
      {
        reasoning: 'Now the whole suite, since importCsv is shared by the stream and preview tests too.',
        calls: [bash('npm test', 'Run the full test suite', fullSuiteOutput('strict-added', '10:43:05'), 2_940)],
      },
      {
        reasoning: `All ${testCount('strict-added')} tests pass. Report back, and mention the line-number pitfall since it affects the error text.`,
        text:
          'Added `tabula import --strict` (src/cli/import.ts).\n\n' +
          '- With `--strict`, every data row must have as many fields as the header; otherwise the import fails with ' +
          '`FILE:LINE: expected N fields, found M`, where LINE is the line in the file (blank lines counted).\n' +
          '- Without it nothing changes: ragged rows are imported as they are, and blank lines are skipped.\n' +
          '- Three new tests in `test/cli-import.test.ts`. My first version reported the wrong line when blank lines came ' +
          'before the bad row (once blank lines are skipped, the row index is not the line number); strict mode now parses ' +
          `every line and skips the blank ones itself. All ${testCount('strict-added')} tests pass.`,
      },
    ],
  },
  {
    prompt:
      'Perfect. Please add a CHANGELOG entry for all of this under a new 1.4.1 section, and bump the version in package.json.',
    compact: { keepUnits: 2, summary: SUMMARY_2 },
    steps: [
      {
        reasoning: 'I need the CHANGELOG format and the current version line in package.json.',
        calls: [read('CHANGELOG.md', f.CHANGELOG_MD), read('package.json', f.PACKAGE_JSON)],
      },
      { maxTokens: true },
    ],
  },
]

/** The title the provider writes for the session once the first answer is in. */
export const DEMO_TITLE = 'Fix parseCsv dropping the last row'
