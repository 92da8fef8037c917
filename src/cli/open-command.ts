/**
 * `dsh-lens [open] [PATH | SESSION-ID] [--port N] [--host ADDR] [--no-open] [--dsh [URL]]`: serve the dsh home (or
 * what is named), print `dsh-lens: <URL>` and open it in the default browser. With `--dsh` the home also lists the
 * sessions of a running `dsh web` host, and follows them through it. The URL carries the token once: the server signs the
 * browser in with a cookie and drops the token from the address (request-trust.ts).
 */

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { defaultDistDir, defaultSessionsRoot } from './serve-command.ts'
import { loadRateCard } from './rates-option.ts'
import { startLensServer, type LensServer } from '../server/lens-server.ts'
import { DEFAULT_DSH_URL, parseUpstreamUrl, remoteUpstreamWarning } from './dsh-flag.ts'
import { defaultServerFlags, readServerFlag } from './server-flags.ts'
import { isLoopbackHost } from '../server/http/request-trust.ts'
import { untilStopped } from './until-stopped.ts'
import { findHostSessions } from './open-host-sessions.ts'
import { userCacheDir } from './user-cache-dir.ts'
import { OpenTargetError, resolveOpenTarget } from './open-target.ts'

/** Where `dsh-lens` listens unless told: fixed, so a bookmarked or copied link keeps working across runs. */
export const DEFAULT_PORT = 4180
/** Ports tried from the default when it is taken (by another dsh-lens, say). */
export const PORT_ATTEMPTS = 20

export const OPEN_USAGE = `usage: dsh-lens [open] [PATH | SESSION-ID] [--port N] [--host ADDR] [--no-open] [--dsh [URL]] [--dist DIR] [--rates FILE]
  (nothing)       the sessions home: every session under $DSH_HOME/sessions (blank = unset) or ~/.dsh/sessions
  PATH            a session file (opened at once), a session directory, a project directory or a sessions root
  SESSION-ID      a session under the home (or, with --dsh, in the host), by id or by a unique prefix of 8+ characters
                  ("session-" may be left out)
  --port N        port to listen on (default ${DEFAULT_PORT}, or the next free one after it)
  --host ADDR     address to bind (default 127.0.0.1; anything else prints a warning)
  --no-open       print the URL only (nothing is opened either when BROWSER=none or there is no display)
  --dsh [URL]     also list and follow the sessions of a running \`dsh web\` host (default ${DEFAULT_DSH_URL}); another
                  host than this machine only when named, with a warning
  --dist DIR      the built viewer (default: dist/ of this package)
  --rates FILE    extend or replace the rate card the sessions' cost column is priced with (also DSH_LENS_RATES)
env DSH_LENS_TOKEN  reuse a token (>= 16 URL-safe chars) so links keep working across restarts`

export class OpenUsageError extends Error {}

export interface OpenArgs {
  readonly target: string | undefined
  /** null: the default port with fallback. */
  readonly port: number | null
  readonly host: string
  readonly open: boolean
  readonly distDir: string | undefined
  /** `--dsh [URL]`: the dsh web host to attach to, as given (validated by parseUpstreamUrl). */
  readonly dsh: string | undefined
  /** `--rates FILE`: a rates file for the sessions' cost column. */
  readonly rates?: string
}

export function parseOpenArgs(argv: readonly string[]): OpenArgs {
  const flags = defaultServerFlags()
  const fail = (message: string): Error => new OpenUsageError(message)
  let target: string | undefined
  let open = true
  for (let i = 0; i < argv.length; i++) {
    const last = readServerFlag(argv, i, flags, fail)
    if (last >= 0) {
      i = last
      continue
    }
    const arg = argv[i] as string
    if (arg === '--no-open') open = false
    else if (arg.startsWith('-')) throw new OpenUsageError(`unknown flag "${arg}"`)
    else if (target !== undefined) throw new OpenUsageError('open takes one PATH or SESSION-ID')
    else target = arg
  }
  return {
    target,
    port: flags.port,
    host: flags.host,
    open,
    distDir: flags.distDir,
    dsh: flags.dsh,
    ...(flags.rates === undefined ? {} : { rates: flags.rates }),
  }
}

/** Whether to start a browser, and if not, why (printed so the user knows to open the URL). */
export function browserDecision(
  args: Pick<OpenArgs, 'open'>,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): { readonly open: true } | { readonly open: false; readonly why: string } {
  if (!args.open) return { open: false, why: '--no-open' }
  if (env['BROWSER'] === 'none') return { open: false, why: 'BROWSER=none' }
  const desktop = platform === 'darwin' || platform === 'win32'
  const display = (env['DISPLAY'] ?? '') !== '' || (env['WAYLAND_DISPLAY'] ?? '') !== ''
  // WSL opens the Windows browser without an X display.
  const wsl = platform === 'linux' && (env['WSL_DISTRO_NAME'] ?? '') !== ''
  if (!desktop && !display && !wsl) return { open: false, why: 'no display' }
  return { open: true }
}

async function openBrowser(url: string): Promise<string | null> {
  try {
    const { default: open } = await import('open')
    const browser = process.env['BROWSER']
    // Resolves once the opener (xdg-open, open, start) is spawned; a browser it starts lives on without us.
    await open(url, browser === undefined || browser === '' ? {} : { app: { name: browser } })
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function fail(message: string): number {
  process.stderr.write(`dsh-lens: ${message}\n`)
  return 2
}

export async function runOpen(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(OPEN_USAGE + '\n')
    return 0
  }
  let args: OpenArgs
  try {
    args = parseOpenArgs(argv)
  } catch (error) {
    if (error instanceof OpenUsageError) return fail(`${error.message}\n${OPEN_USAGE}`)
    throw error
  }
  // A malformed rates file stops the command before anything is served (one sentence naming the line and field).
  const rateCard = loadRateCard(args.rates)
  const distDir = args.distDir ?? defaultDistDir()
  if (!existsSync(join(distDir, 'index.html'))) {
    return fail(`the viewer is not built (no ${join(distDir, 'index.html')}): run \`npm run build\` first`)
  }
  const token = process.env['DSH_LENS_TOKEN']
  if (token !== undefined && !/^[A-Za-z0-9_-]{16,}$/.test(token)) {
    return fail('DSH_LENS_TOKEN must be at least 16 characters of [A-Za-z0-9_-]')
  }
  const home = defaultSessionsRoot()
  const upstream = args.dsh === undefined ? undefined : parseUpstreamUrl(args.dsh)
  let target
  try {
    const host =
      upstream?.ok === true
        ? { url: upstream.url.href, find: (query: string) => findHostSessions(upstream.url, query) }
        : undefined
    target = await resolveOpenTarget(args.target, home, host)
  } catch (error) {
    if (error instanceof OpenTargetError) return fail(error.message)
    throw error
  }
  if (!isLoopbackHost(args.host)) {
    process.stderr.write(
      `dsh-lens: WARNING: binding ${args.host}, not loopback. Anyone who can reach this address and learns the token can read these session logs.\n`,
    )
  }
  if (upstream?.ok === true && !upstream.loopback) process.stderr.write(`dsh-lens: ${remoteUpstreamWarning(upstream.url)}\n`)
  const port = args.port ?? DEFAULT_PORT
  let server: LensServer
  try {
    server = await startLensServer({
      roots: target.roots,
      allowMissingRoots: target.allowMissing,
      sessionsHome: true,
      rateCard,
      host: args.host,
      port,
      portAttempts: args.port === null ? PORT_ATTEMPTS : 1,
      distDir,
      log: (line) => process.stderr.write(`dsh-lens: ${line}\n`),
      contentIndex: { cacheDir: userCacheDir() },
      ...(token === undefined ? {} : { token }),
      ...(upstream?.ok === true ? { dsh: { url: upstream.url } } : {}),
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      return fail(
        `port ${port} is taken${args.port === null ? ` (and the ${PORT_ATTEMPTS - 1} after it)` : ''}: pass another --port`,
      )
    return fail(`cannot start: ${(error as Error).message}`)
  }
  const url = server.signInUrl(target.sessionId ?? undefined)
  const moved = server.port !== port && port !== 0 ? ` (port ${port} is taken)` : ''
  process.stdout.write(`dsh-lens: ${url}${moved}\n`)
  process.stderr.write(`dsh-lens: reading (never writing) ${target.roots.join(', ')}; Ctrl-C stops\n`)
  if (upstream?.ok === true) process.stderr.write(`dsh-lens: following dsh web at ${upstream.url.href} (reads only)\n`)
  if (target.allowMissing && !existsSync(home)) {
    process.stderr.write(
      `dsh-lens: no sessions at ${home} yet: dsh writes them there; set DSH_HOME, or run \`dsh-lens open PATH\` for logs elsewhere\n`,
    )
  }
  const decision = browserDecision(args)
  if (decision.open) {
    const problem = await openBrowser(url)
    if (problem !== null) process.stderr.write(`dsh-lens: could not open a browser (${problem}): open the URL above\n`)
  } else if (decision.why !== '--no-open') {
    process.stderr.write(`dsh-lens: not opening a browser (${decision.why}): open the URL above\n`)
  }
  await untilStopped()
  await server.close()
  return 0
}
