/**
 * Sessions written by the real DeepSeek Harness, keyless (../shared/real-dsh: the shipped harness with a scripted
 * model; read its README). `ensureRealDsh()` installs it when missing (its setup.sh: npm ci into a cache folder outside
 * the repository, a no-op when installed), so a fresh CI machine can run these tests. Every caller gives its own
 * DSH_HOME: one headless run per home at a time is the harness's rule.
 */

import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const REAL_DSH_SRC = fileURLToPath(new URL('../../../shared/real-dsh/', import.meta.url))

/** Whether ../shared/real-dsh is beside the checkout (absent in a user's clone; required under CI=true). */
export function realDshAvailable(): boolean {
  const present = existsSync(`${REAL_DSH_SRC}headless.sh`)
  if (!present && process.env['CI'] === 'true') {
    throw new Error(`CI=true but ../shared/real-dsh is missing at ${REAL_DSH_SRC}: CI must provide ../shared beside the checkout`)
  }
  if (!present) console.log(`real-dsh not found at ${REAL_DSH_SRC}: skipping the tests on real harness sessions`)
  return present
}

let installed: Promise<void> | undefined

/** Install the harness if it is not (a cold install downloads ~180 MB: allow minutes). */
export function ensureRealDsh(): Promise<void> {
  installed ??= run('bash', [`${REAL_DSH_SRC}setup.sh`], { maxBuffer: 16 << 20 }).then(() => undefined)
  return installed
}

export interface HeadlessOptions {
  /** The harness's home: sessions land in `<home>/sessions/--<cwd slug>--/session-<uuid>/`. */
  readonly home: string
  /** The directory the agent runs in: its project (header `cwd`). Created when missing. */
  readonly workdir: string
  /** Extra headless.sh options, e.g. `['--compact']`. */
  readonly flags?: readonly string[]
  readonly env?: NodeJS.ProcessEnv
}

/** Runs one headless session (mock vocabulary in the prompt: SPAWN, NOTOOL, LOOPn, ...) and returns its log's path. */
export async function runHeadless(prompt: string, options: HeadlessOptions): Promise<string> {
  await ensureRealDsh()
  await mkdir(options.workdir, { recursive: true })
  const { stdout } = await run('bash', [`${REAL_DSH_SRC}headless.sh`, ...(options.flags ?? []), prompt], {
    env: { ...process.env, ...options.env, DSH_HOME: options.home, DSH_WORKDIR: options.workdir },
    maxBuffer: 16 << 20,
  })
  const path = stdout.trim().split('\n').pop() ?? ''
  if (!path.endsWith('session.jsonl.zstd')) throw new Error(`headless.sh printed no log path: ${stdout}`)
  return path
}

export interface RealLog {
  /** The bytes of the harness's own file, `session.jsonl.zstd`. */
  readonly zstd: Buffer
  /** Its plain JSONL, decoded by the scripts' own decoder (Node's zstd, not ours). */
  readonly jsonl: string
}

/**
 * One headless session of the real harness in a private home under the system temp folder (removed after), read
 * back as bytes and as the scripts' own JSONL. `prompt` speaks the mock's vocabulary (real-dsh/README.md): e.g.
 * `LOOP3 SLOW40 …` (three extra bash steps, 40 ms before every stream chunk), `PARTS2` (runs too short to pack).
 * Synchronous, for tests that need one log and nothing else; the harness must be installed (`pretest` does it).
 */
export function realHarnessLog(prompt: string, options: { compact?: boolean } = {}): RealLog {
  const home = mkdtempSync(join(tmpdir(), 'lens-real-dsh-'))
  const env = { ...process.env, DSH_HOME: join(home, 'home'), DSH_WORKDIR: mkdtempSync(join(home, 'work-')) }
  const args = [join(REAL_DSH_SRC, 'headless.sh'), ...(options.compact === true ? ['--compact'] : []), prompt]
  try {
    const zstdPath = execFileSync('bash', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
    const jsonl = execFileSync('bash', [join(REAL_DSH_SRC, 'decode.sh'), zstdPath], { env, encoding: 'utf8', maxBuffer: 1 << 28 })
    return { zstd: readFileSync(zstdPath), jsonl }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}
