/**
 * `dsh-lens <command>` (or `npm run --silent lens -- <command>` from the sources): the command-line front end.
 * Exit codes: 0 accepted and clean, 1 rejected by the harness or has defects,
 * 2 the file cannot be read, is no session log at all (an image, an archive), or the command line is wrong.
 */

import { writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { foldJson } from './fold-json.ts'
import { writeJsonLine } from './json-stream.ts'
import { isOpenShorthand } from './open-shorthand.ts'
import { readLog, UnreadableLogError } from './read-log.ts'

const USAGE = `usage:
  dsh-lens [open] [PATH | SESSION-ID] [--port N] [--no-open] [--dsh [URL]]
                                         serve your dsh sessions ($DSH_HOME/sessions or ~/.dsh/sessions), or the
                                         file, directory or session named, and open them in the browser
  dsh-lens check FILE [--rates FILE]     human-readable report; exit 0 accepted, 1 rejected/defects (provider-invariant warnings not counted), 2 unreadable or not a log
  dsh-lens fold FILE --json [--at SEQ]   the strict fold as one JSON object
  dsh-lens serve [PATH ...] [--port N] [--host ADDR] [--demo] [--dsh [URL]]
                                         companion server for the Connect flow: the viewer plus live tailing over WebSocket
                                         (--dsh: also the sessions of a running dsh web host)
  dsh-lens generate-demo OUT             write the bundled demo session (JSONL) and its subagent logs beside it
  dsh-lens slice FILE --to SEQ           the log prefix through SEQ as a plain session.jsonl on standard output
  dsh-lens search FILE QUERY --json [--regex] [--type T]... [--turn N] [--step N] [--surface-only] [--limit N]
                                         full-text search: matches (seq, type, JSON path, snippet) and when the model saw them
  dsh-lens request FILE --step T.S --json | --list --json
                                         the request the harness built for a step and its diff with the previous step; or every step
  dsh-lens timing FILE --json            per step: request, first output, message, TTFT, generation, tok/s, tools, retries; and totals
  dsh-lens compactions FILE --json       every compaction summary with the facts it does not mention (files, todos, goal, request, calls)
  dsh-lens secrets FILE --json           the secrets a log holds (masked, hashed) and when the model saw them
  dsh-lens redact FILE -o OUT [--allow HASH]... [--redact-paths]
                                         the log with its secrets replaced by [REDACTED:kind:hash], the same session otherwise
  dsh-lens bundle FILE|ID -o OUT.html [--no-redact] [--with-subagents] [--redact-paths] [--allow HASH]...
                                         one HTML file, the viewer and the (redacted) log inline, that opens from file:// offline
  dsh-lens diff A B [--json]             two runs (files or session ids) compared at the surface: where they parted, each pair
                                         of steps, totals; exit 0 equal (ids and times aside), 1 they differ, 2 bad input
  dsh-lens cost FILE [--json] [--currency CNY|USD] [--rates FILE]
                                         what each step, compaction and cache break cost (an estimate from the logged usage)
  dsh-lens usage [PATH] [--json] [--by day|week|month|project|model] [--since DATE] [--currency CNY|USD] [--rates FILE]
                                         tokens and cost over a sessions root (default the dsh home), subagents under their session
  dsh-lens find "TEXT" [PATH] --json [--project P] [--since D] [--tool NAME] [--failed] [--surface S] [--limit N]
                                         search every session's content (one phrase), grouped by session, with each hit's surface class
  dsh-lens index [PATH] [--rebuild]      build or refresh the content index find uses (in the user's cache directory)
FILE is a .jsonl, a .jsonl.zstd, or - for standard input. \`dsh-lens open --help\`, \`serve --help\` and \`find --help\` say more.`

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'check': {
      const { loadRateCard, takeRatesFlag } = await import('./rates-option.ts')
      const { checkExitCode, checkReport } = await import('./check-report.ts')
      const rates = takeRatesFlag(rest)
      if (typeof rates === 'string') throw new UsageError(rates)
      const [file, ...extra] = rates.rest
      if (file === undefined || extra.length > 0) throw new UsageError('check takes exactly one FILE')
      const card = loadRateCard(rates.rates)
      const log = await readLog(file, { keep: ['compactions'] })
      process.stdout.write(checkReport(file, log, card))
      return checkExitCode(log)
    }
    case 'fold': {
      const file = rest.find((a, i) => !a.startsWith('--') && rest[i - 1] !== '--at')
      if (file === undefined) throw new UsageError('fold needs a FILE')
      if (!rest.includes('--json')) throw new UsageError('fold prints JSON only: pass --json')
      const atArg = rest.indexOf('--at')
      let at: number | undefined
      if (atArg !== -1) {
        at = Number(rest[atArg + 1])
        if (!Number.isSafeInteger(at) || at < 0) throw new UsageError('--at takes a non-negative integer SEQ')
      }
      const log = await readLog(file)
      await writeJsonLine(process.stdout, foldJson(log, at))
      return 0
    }
    case 'slice': {
      const { runSlice, SliceUsageError } = await import('./slice-command.ts')
      try {
        return await runSlice(rest)
      } catch (error) {
        throw error instanceof SliceUsageError ? new UsageError(error.message) : error
      }
    }
    case 'request': {
      const { runRequest, RequestUsageError } = await import('./request-json.ts')
      try {
        return await runRequest(rest)
      } catch (error) {
        throw error instanceof RequestUsageError ? new UsageError(error.message) : error
      }
    }
    case 'compactions': {
      const { runCompactions, CompactionsUsageError } = await import('./compactions-json.ts')
      try {
        return await runCompactions(rest)
      } catch (error) {
        throw error instanceof CompactionsUsageError ? new UsageError(error.message) : error
      }
    }
    case 'timing': {
      const { runTiming, TimingUsageError } = await import('./timing-command.ts')
      try {
        return await runTiming(rest)
      } catch (error) {
        throw error instanceof TimingUsageError ? new UsageError(error.message) : error
      }
    }
    case 'diff': {
      const { runDiff, DiffUsageError } = await import('./diff-command.ts')
      try {
        return await runDiff(rest)
      } catch (error) {
        throw error instanceof DiffUsageError ? new UsageError(error.message) : error
      }
    }
    case 'cost': {
      const { runCost, CostUsageError } = await import('./cost-command.ts')
      try {
        return await runCost(rest)
      } catch (error) {
        throw error instanceof CostUsageError ? new UsageError(error.message) : error
      }
    }
    case 'usage': {
      const { runUsage, UsageCommandError } = await import('./usage/usage-command.ts')
      try {
        return await runUsage(rest)
      } catch (error) {
        throw error instanceof UsageCommandError ? new UsageError(error.message) : error
      }
    }
    case 'search': {
      const { runSearch, SearchUsageError } = await import('./search-json.ts')
      try {
        return await runSearch(rest)
      } catch (error) {
        throw error instanceof SearchUsageError ? new UsageError(error.message) : error
      }
    }
    case 'secrets':
    case 'redact': {
      const { runSecrets, runRedact, SecretsUsageError } = await import('./secrets-command.ts')
      try {
        return await (command === 'secrets' ? runSecrets(rest) : runRedact(rest))
      } catch (error) {
        throw error instanceof SecretsUsageError ? new UsageError(error.message) : error
      }
    }
    case 'bundle': {
      const { runBundle, BundleUsageError } = await import('./bundle-command.ts')
      try {
        return await runBundle(rest)
      } catch (error) {
        throw error instanceof BundleUsageError ? new UsageError(error.message) : error
      }
    }
    case 'find':
    case 'index': {
      const { runFind, runIndex, FindUsageError } = await import('./find-command.ts')
      try {
        return await (command === 'find' ? runFind(rest) : runIndex(rest))
      } catch (error) {
        throw error instanceof FindUsageError ? new UsageError(error.message) : error
      }
    }
    case 'open': {
      const { runOpen } = await import('./open-command.ts')
      return runOpen(rest)
    }
    case 'serve': {
      const { runServe } = await import('./serve-command.ts')
      await runServe(rest)
      return 0
    }
    case 'generate-demo': {
      const [out] = rest
      if (out === undefined) throw new UsageError('generate-demo needs an output path')
      const { demoFiles } = await import('../generate/index.ts')
      // The parent at OUT, its subagent children beside it under subagents/<id>/session.jsonl (the web export's layout).
      for (const [i, file] of demoFiles().entries()) {
        const path = i === 0 ? out : join(dirname(out), file.path)
        mkdirSync(dirname(path), { recursive: true })
        writeFileSync(path, file.text)
      }
      return 0
    }
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE + '\n')
      return 0
    default: {
      // No command, flags only, or a path or session id first: `dsh-lens [TARGET]` is `dsh-lens open [TARGET]`.
      if (command !== undefined && !command.startsWith('-') && !isOpenShorthand(command))
        throw new UsageError(`unknown command "${command}"`)
      const { runOpen } = await import('./open-command.ts')
      return runOpen(argv)
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`dsh-lens: ${error.message}\n${USAGE}\n`)
    } else if (error instanceof UnreadableLogError) {
      process.stderr.write(`dsh-lens: ${error.message}\n`)
    } else {
      process.stderr.write(
        `dsh-lens: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
    }
    process.exitCode = 2
  },
)
