/**
 * `dsh-lens` (and `dsh-lens serve`) as a user runs it: the built CLI (bin/dsh-lens.cjs; `npm run test:e2e` builds it)
 * started as a process with its own DSH_HOME, never opening a browser; the URL to open is read from standard output.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The built CLI, as a user runs it (also for a spec's one-shot commands: `diff`, `fold`, …). */
export const BIN = fileURLToPath(new URL('../../bin/dsh-lens.cjs', import.meta.url))

export interface DshLensProcess {
  /** The URL it printed (token included). */
  readonly url: string
  /** Everything it printed on standard output (its one line) and standard error so far. */
  output(): string
  stop(): Promise<void>
}

export function startDshLens(args: readonly string[], home: string): Promise<DshLensProcess> {
  return startProcess([...args, '--no-open'], home, /^dsh-lens: (http:\/\/\S+)/m)
}

/** `dsh-lens serve` the same way; `url` is its `home:` line (the sessions home, signed in by the token). */
export function startDshLensServe(args: readonly string[], home: string): Promise<DshLensProcess> {
  return startProcess(['serve', ...args], home, /^home: (http:\/\/\S+)/m)
}

async function startProcess(args: readonly string[], home: string, urlLine: RegExp): Promise<DshLensProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, ...args, '--port', '0', '--dist', process.env['E2E_DIST'] ?? 'dist'],
    {
      // The home's content index goes beside the test's dsh home (`lens-cache`, never in it), not the user's cache.
      env: { ...process.env, XDG_CACHE_HOME: join(home, '..', 'lens-cache'), DSH_HOME: home, BROWSER: 'none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c))
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c))
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = urlLine.exec(out)
      if (match !== null) resolve(match[1] as string)
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => reject(new Error(`dsh-lens exited ${code}: ${out}${err}`)))
  })
  return {
    url,
    output: () => out + err,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
