/**
 * The command-line flags `dsh-lens serve` and `dsh-lens [open]` share (`--port`, `--host`, `--dist`, `--dsh [URL]`),
 * read one way for both: the same checks, the same error texts. Each command reads its own flags and words around
 * them and throws its own usage error (`fail`).
 */

import { parseUpstreamUrl, readDshFlag } from './dsh-flag.ts'

export interface ServerFlags {
  /** null: the command's default. */
  port: number | null
  host: string
  distDir: string | undefined
  /** `--dsh [URL]`: the dsh web host to attach to, as given (checked by parseUpstreamUrl). */
  dsh: string | undefined
}

export function defaultServerFlags(): ServerFlags {
  return { port: null, host: '127.0.0.1', distDir: undefined, dsh: undefined }
}

type Fail = (message: string) => Error

/** The word after the flag at `at`, which must be a value, not another flag. */
export function flagValue(argv: readonly string[], at: number, fail: Fail): string {
  const value = argv[at + 1]
  if (value === undefined || value.startsWith('--')) throw fail(`${argv[at]} needs a value`)
  return value
}

/**
 * Reads the shared flag at `argv[at]` into `flags` and returns the index of its last word, or -1 when the word is
 * not one of the shared flags (the command reads it).
 */
export function readServerFlag(argv: readonly string[], at: number, flags: ServerFlags, fail: Fail): number {
  switch (argv[at]) {
    case '--port': {
      const raw = flagValue(argv, at, fail)
      const port = Number(raw)
      if (!/^\d+$/.test(raw) || port > 65535) throw fail(`--port takes an integer 0-65535, got "${raw}"`)
      flags.port = port
      return at + 1
    }
    case '--host':
      flags.host = flagValue(argv, at, fail)
      return at + 1
    case '--dist':
      flags.distDir = flagValue(argv, at, fail)
      return at + 1
    case '--dsh': {
      const flag = readDshFlag(argv, at)
      const parsed = parseUpstreamUrl(flag.raw)
      if (!parsed.ok) throw fail(parsed.why)
      flags.dsh = flag.raw
      return flag.next
    }
    default:
      return -1
  }
}
