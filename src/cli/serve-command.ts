/** `dsh-lens serve [PATH ...] [--port N] [--host ADDR] [--demo]`: flag parsing, startup banner, and shutdown on SIGINT/SIGTERM. */

import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startDemoWriter, type DemoWriter } from './demo-writer.ts'
import { DEFAULT_DSH_URL, parseUpstreamUrl, remoteUpstreamWarning } from './dsh-flag.ts'
import { defaultServerFlags, flagValue, readServerFlag } from './server-flags.ts'
import { loadRateCard } from './rates-option.ts'
import { startLensServer } from '../server/lens-server.ts'
import { isLoopbackHost } from '../server/http/request-trust.ts'
import { untilStopped } from './until-stopped.ts'
import { userCacheDir } from './user-cache-dir.ts'

/**
 * The built viewer beside this code: `dist/` of the checkout, seen from src/cli/ (run through tsx) or
 * from dist-cli/ (the bundled CLI). The first that holds an index.html wins.
 */
export function defaultDistDir(): string {
  const candidates = ['../../dist', '../dist'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[0] as string)
}

export const SERVE_USAGE = `usage: dsh-lens serve [PATH ...] [--port N] [--host ADDR] [--demo] [--dsh [URL]] [--allow-origin ORIGIN] [--dist DIR] [--rates FILE]
  PATH            a session file, a session, project or sessions directory (default: $DSH_HOME/sessions or ~/.dsh/sessions)
  --dsh [URL]     also follow the sessions of a running \`dsh web\` host (default ${DEFAULT_DSH_URL}); another host than
                  this machine only when named, with a warning
  --port N        port to listen on (default 0: pick a free one)
  --host ADDR     address to bind (default 127.0.0.1; anything else prints a warning)
  --demo          also serve a generated session that grows live (written to a private temp directory)
  --allow-origin  an extra exact Origin allowed to connect (e.g. http://localhost:5173 for the Vite dev server)
  --dist DIR      the built viewer (default: dist/ of this checkout)
  --rates FILE    extend or replace the rate card the sessions' cost column is priced with (also DSH_LENS_RATES)
env DSH_LENS_TOKEN  reuse a token (>= 16 URL-safe chars) so open pages survive a server restart; default: a fresh random one
env XDG_CACHE_HOME  where the home's content search keeps its index (dsh-lens/ in it; default ~/.cache), built on first use`

export class ServeUsageError extends Error {}

export interface ServeArgs {
  readonly paths: readonly string[]
  readonly port: number
  readonly host: string
  readonly demo: boolean
  readonly allowOrigins: readonly string[]
  readonly distDir: string | undefined
  /** `--dsh [URL]`: the dsh web host to attach to, as given (validated by parseUpstreamUrl). */
  readonly dsh: string | undefined
  /** `--rates FILE`: a rates file for the sessions' cost column. */
  readonly rates?: string
}

export function defaultSessionsRoot(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['DSH_HOME']
  // The harness treats a blank DSH_HOME as unset.
  return home !== undefined && home.trim() !== '' ? join(home, 'sessions') : join(homedir(), '.dsh', 'sessions')
}

export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const flags = defaultServerFlags()
  const fail = (message: string): Error => new ServeUsageError(message)
  const paths: string[] = []
  const allowOrigins: string[] = []
  let demo = false
  for (let i = 0; i < argv.length; i++) {
    const last = readServerFlag(argv, i, flags, fail)
    if (last >= 0) {
      i = last
      continue
    }
    const arg = argv[i] as string
    if (arg === '--demo') demo = true
    else if (arg === '--allow-origin') {
      const origin = flagValue(argv, i++, fail)
      if (!/^https?:\/\/[^/]+$/.test(origin))
        throw new ServeUsageError(`--allow-origin takes an origin like http://localhost:5173, got "${origin}"`)
      allowOrigins.push(origin)
    } else if (arg.startsWith('-')) throw new ServeUsageError(`unknown flag "${arg}"`)
    else paths.push(arg)
  }
  return {
    paths,
    port: flags.port ?? 0,
    host: flags.host,
    demo,
    allowOrigins,
    distDir: flags.distDir,
    dsh: flags.dsh,
    ...(flags.rates === undefined ? {} : { rates: flags.rates }),
  }
}

export async function runServe(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(SERVE_USAGE + '\n')
    return
  }
  let args: ServeArgs
  try {
    args = parseServeArgs(argv)
  } catch (error) {
    if (!(error instanceof ServeUsageError)) throw error
    process.stderr.write(`dsh-lens serve: ${error.message}\n${SERVE_USAGE}\n`)
    process.exit(2)
  }
  // A malformed rates file stops the command before anything is served (one sentence naming the line and field).
  const rateCard = loadRateCard(args.rates)
  let demo: DemoWriter | undefined
  const roots = [...args.paths]
  if (args.demo) {
    demo = await startDemoWriter()
    roots.push(demo.root)
  }
  if (args.paths.length === 0 && !args.demo) roots.push(defaultSessionsRoot())
  // A path given that is not there is the user's typo: say which. The default home may not exist yet (dsh has not
  // run): it is served empty, and found once it exists.
  const missing = args.paths.filter((path) => !existsSync(path))
  if (missing.length > 0) {
    process.stderr.write(`dsh-lens serve: no such file or directory: ${missing.join(', ')}\n`)
    process.exit(2)
  }
  if (!isLoopbackHost(args.host)) {
    process.stderr.write(
      `dsh-lens serve: WARNING: binding ${args.host}, not loopback. Anyone who can reach this address and learns the token can read these session logs.\n`,
    )
  }
  const upstream = args.dsh === undefined ? undefined : parseUpstreamUrl(args.dsh)
  if (upstream?.ok === true && !upstream.loopback)
    process.stderr.write(`dsh-lens serve: ${remoteUpstreamWarning(upstream.url)}\n`)
  const distDir = args.distDir ?? defaultDistDir()
  const token = process.env['DSH_LENS_TOKEN']
  if (token !== undefined && !/^[A-Za-z0-9_-]{16,}$/.test(token)) {
    process.stderr.write('dsh-lens serve: DSH_LENS_TOKEN must be at least 16 characters of [A-Za-z0-9_-]\n')
    process.exit(2)
  }
  let server
  try {
    server = await startLensServer({
      roots,
      allowMissingRoots: args.paths.length === 0,
      // `/` (signed in by `home:`'s URL) is the sessions home, with its content search, as `dsh-lens [open]` serves it;
      // the Connect flow's `?ws=` page (`open:`) is as it was.
      sessionsHome: true,
      rateCard,
      host: args.host,
      port: args.port,
      distDir,
      allowOrigins: args.allowOrigins,
      log: (line) => process.stderr.write(`dsh-lens serve: ${line}\n`),
      // The home's content search: its index in the user's cache directory, never under the dsh home or the paths.
      contentIndex: { cacheDir: userCacheDir() },
      ...(token === undefined ? {} : { token }),
      ...(upstream?.ok === true ? { dsh: { url: upstream.url } } : {}),
    })
  } catch (error) {
    await demo?.stop()
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? `a path does not exist (${(error as Error).message})` : (error as Error).message
    process.stderr.write(`dsh-lens serve: cannot start: ${why}\n`)
    process.exit(2)
  }
  if (!existsSync(join(distDir, 'index.html'))) {
    // The stream still serves followers (tests, the soak); a page would answer 404.
    process.stderr.write(`dsh-lens serve: no built viewer in ${distDir}: the page answers 404 until \`npm run build\`\n`)
  }
  process.stdout.write(`dsh-lens serve: reading (never writing) ${roots.join(', ')}\n`)
  if (upstream?.ok === true) process.stdout.write(`following dsh web at ${upstream.url.href} (reads only)\n`)
  process.stdout.write(`listening on ${server.origin} (stream ${server.streamUrl})\n`)
  process.stdout.write(`open: ${server.viewerUrl}\n`)
  process.stdout.write(`home: ${server.signInUrl()}\n`)
  await untilStopped()
  await server.close()
  await demo?.stop()
}
