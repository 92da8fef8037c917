/**
 * The real DeepSeek Harness host (`dsh web`, keyless, scripted model) from `../shared/real-dsh/`, for the dsh-web
 * adapter's tests, e2e and bench. Installing is the test run's own job: `setup.sh` installs into a cache folder outside
 * the repository (`$REAL_DSH_DIR`, default `~/.cache/dsh-lens/real-dsh`) and is a no-op once done. Every host gets a
 * private DSH_HOME and workdir in a temp folder and a free port (REAL_DSH_PORT=0), so parallel runs never share one.
 * Stopping and killing touch only the process in that home's pid file (and its own process group).
 *
 * In a user's clone without ../shared the lane is skipped with a line saying so; under CI=true that is a failure.
 */

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { LensLog, loadContentChecksum } from '../core/index.ts'

export const REAL_DSH_SRC = fileURLToPath(new URL('../../../shared/real-dsh/', import.meta.url))

export function realDshAvailable(): boolean {
  const present = existsSync(join(REAL_DSH_SRC, 'host.sh'))
  if (!present && process.env['CI'] === 'true')
    throw new Error(`CI=true but the real harness scripts are missing at ${REAL_DSH_SRC}: CI must provide ../shared`)
  if (!present) console.log(`real harness not found at ${REAL_DSH_SRC}: skipping the dsh web lane`)
  return present
}

function run(script: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      join(REAL_DSH_SRC, script),
      [...args],
      { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${script} ${args.join(' ')} failed: ${error.message}\n${stderr}`))
        else resolve(stdout)
      },
    )
  })
}

let installed: Promise<string> | undefined

/** Install the harness once per process (a no-op of ~30 ms when already installed). Returns REAL_DSH_DIR. */
export function ensureRealDsh(): Promise<string> {
  installed ??= run('setup.sh', [], process.env, 600_000).then((out) => out.trim().split('\n').pop() as string)
  return installed
}

export interface RealHost {
  readonly home: string
  readonly workdir: string
  readonly env: NodeJS.ProcessEnv
  /** `http://127.0.0.1:PORT/` of the running host. */
  url: string
  readonly port: number
  /** Start it (again), on the same port as before when it ran already. */
  start(): Promise<string>
  /** Graceful stop (SIGTERM, as `host.sh stop`). */
  stop(): Promise<void>
  /** Stop it (if it runs) and remove its home and workdir: every caller's last call. */
  remove(): Promise<void>
  /** SIGKILL the host and its process group: a crash, mid-write. */
  kill(): Promise<void>
  /** `prompt.sh`: prompt a session (`new` creates one); resolves with the session id once the host accepted it. */
  prompt(session: string, text: string): Promise<string>
  /** The session's log on disk. */
  logPath(sessionId: string): Promise<string>
  /** `host.sh log`'s file, for a failing test's message. */
  logTail(): Promise<string>
  /** One call of the host's RPC (`POST /api/METHOD`, as its web UI calls it, e.g. `session.fork`): its value. */
  rpc(method: string, payload: unknown): Promise<Record<string, unknown>>
  /** The session's log once it holds `turns` closed turns: the host writes behind, so the file is read until then. */
  settled(sessionId: string, turns: number): Promise<LensLog>
}

/** A log file read whole by the core. */
async function readLog(path: string): Promise<LensLog> {
  const log = new LensLog({ checksum: await loadContentChecksum() })
  log.push(await readFile(path))
  log.finish()
  return log
}

/** A host on a private home; `delayMs` is the mock's pause between stream chunks (MOCK_DELAY_MS). */
export async function createRealHost(options: { delayMs?: number } = {}): Promise<RealHost> {
  const dir = await ensureRealDsh()
  const root = await mkdtemp(join(tmpdir(), 'lens-dsh-'))
  const home = join(root, 'home')
  const workdir = join(root, 'work')
  await mkdir(home, { recursive: true })
  await mkdir(workdir, { recursive: true })
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REAL_DSH_DIR: dir,
    DSH_HOME: home,
    DSH_WORKDIR: workdir,
    REAL_DSH_PORT: '0',
    MOCK_DELAY_MS: String(options.delayMs ?? 30),
  }
  const runDir = join(dir, 'run', createHash('sha256').update(home).digest('hex').slice(0, 12))
  let port = 0
  const host: RealHost = {
    home,
    workdir,
    env,
    url: '',
    get port() {
      return port
    },
    async start() {
      const args = port === 0 ? ['start'] : ['start', '--port', String(port)]
      const url = (await run('host.sh', args, env)).trim()
      port = Number(new URL(url).port)
      host.url = url
      return url
    },
    async stop() {
      await run('host.sh', ['stop'], env)
    },
    async remove() {
      await host.stop().catch(() => undefined)
      await rm(root, { recursive: true, force: true })
    },
    async kill() {
      const pid = Number((await readFile(join(runDir, 'dsh-web.pid'), 'utf8')).trim())
      if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`no pid for the host of ${home}`)
      // host.sh starts it with setsid: it leads its own process group, which holds only it and its children.
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        process.kill(pid, 'SIGKILL')
      }
      for (let i = 0; i < 200; i++) {
        try {
          process.kill(pid, 0)
        } catch {
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
    async prompt(session, text) {
      const out = await run('prompt.sh', [session, text], env)
      const [id, response] = out.trim().split('\n')
      if (id === undefined || !/"ok":true/.test(response ?? '')) throw new Error(`prompt.sh: ${out}`)
      return id
    },
    async logPath(sessionId) {
      const sessions = join(home, 'sessions')
      for (const project of await readdir(sessions)) {
        const path = join(sessions, project, sessionId, 'session.jsonl.zstd')
        if (existsSync(path)) return path
      }
      throw new Error(`no log for ${sessionId} under ${sessions}`)
    },
    async logTail() {
      const log = (await run('host.sh', ['log'], env)).trim()
      return existsSync(log) ? (await readFile(log, 'utf8')).split('\n').slice(-30).join('\n') : `(no host log at ${log})`
    },
    async rpc(method, payload) {
      const response = await fetch(new URL(`api/${method}`, host.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'client-request', rpcId: 'r1', method, payload }),
      })
      const body = (await response.json()) as { result: { ok: boolean; value: Record<string, unknown> } }
      if (!body.result.ok) throw new Error(`${method}: ${JSON.stringify(body)}`)
      return body.result.value
    },
    async settled(sessionId, turns) {
      const deadline = Date.now() + 90_000
      for (;;) {
        const log = await host.logPath(sessionId).then(readLog, () => null)
        const closed = log?.turns.turns.filter((t) => t.end !== null).length ?? 0
        if (log !== null && closed >= turns) return log
        if (Date.now() > deadline) throw new Error(`${sessionId} never closed ${turns} turn(s): ${await host.logTail()}`)
        await new Promise((resolve) => setTimeout(resolve, 150))
      }
    },
  }
  return host
}
