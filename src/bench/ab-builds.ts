/**
 * The two builds an A/B run compares (`npm run bench -- --against REF`): the viewer (dist) and the CLI (dist-cli) of
 * a commit, and of the working tree.
 *
 * A commit is exported with `git archive` into `.bench/ab/<sha>/` (no worktree is registered in the repository's git
 * directory, which other checkouts share) and built there with its own `npm run build`, so it is measured exactly as
 * it landed. Its dependencies: when every package its lockfile pins is pinned at the same version by ours, the
 * checkout's node_modules is linked in; otherwise `npm ci` installs its own. A finished build is kept
 * (`.ab-built`) and reused by every later run against that commit.
 *
 * The working tree is built into `.bench/ab/work/` at every run (its sources change between runs); the CLI with
 * `build-cli.ts --outdir`, the viewer with `vite build --outDir`, so `dist/` and `dist-cli/`, which e2e runs use,
 * are never touched.
 */

import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const AB_DIR = join(ROOT, '.bench/ab')

export interface AbBuild {
  /** What the report calls it: a short sha, or `work` for the working tree. */
  readonly label: string
  /** The full sha, or null for the working tree. */
  readonly sha: string | null
  /** The built viewer (index.html and its assets). */
  readonly dist: string
  /** The CLI's launcher (`dsh-lens.cjs`). */
  readonly cli: string
}

function log(message: string): void {
  process.stderr.write(`[ab] ${message}\n`)
}

function run(command: string, args: readonly string[], cwd: string, what: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${what} failed (${result.status ?? result.signal}): ${result.stderr.slice(-2000)}`)
}

/** The commit `ref` names, in full; throws with git's own words when it names none. */
export function resolveCommit(ref: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim()
  } catch {
    throw new Error(`--against ${ref}: no such commit in this repository`)
  }
}

type LockPackages = Record<string, { version?: string }>

function lockPackages(text: string): LockPackages {
  return (JSON.parse(text) as { packages?: LockPackages }).packages ?? {}
}

/** Whether every package `theirs` pins (by install path) is pinned at the same version by `ours`. */
export function lockIsSubset(theirs: LockPackages, ours: LockPackages): boolean {
  for (const [path, entry] of Object.entries(theirs)) {
    if (path === '') continue
    if (ours[path]?.version !== entry.version) return false
  }
  return true
}

function installDependencies(dir: string): void {
  const theirs = lockPackages(readFileSync(join(dir, 'package-lock.json'), 'utf8'))
  const ours = lockPackages(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'))
  if (existsSync(join(ROOT, 'node_modules')) && lockIsSubset(theirs, ours)) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    return
  }
  log(`${dir}: its lockfile differs from ours; npm ci (once per commit)`)
  run('npm', ['ci', '--no-audit', '--no-fund'], dir, 'npm ci')
}

/** A commit's build, made once and kept under .bench/ab/<sha>/. */
export function commitBuild(sha: string): AbBuild {
  const dir = join(AB_DIR, sha)
  const build: AbBuild = {
    label: sha.slice(0, 7),
    sha,
    dist: join(dir, 'dist'),
    cli: join(dir, 'dist-cli/dsh-lens.cjs'),
  }
  const marker = join(dir, '.ab-built')
  if (existsSync(marker)) return build
  log(`building ${build.label} in ${dir} (kept for later runs)`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  // git archive | tar: the commit's tracked files exactly, without registering a worktree.
  const archive = spawnSync('git', ['archive', '--format=tar', sha], { cwd: ROOT, maxBuffer: 1 << 30 })
  if (archive.status !== 0) throw new Error(`git archive ${sha} failed: ${archive.stderr.toString()}`)
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout })
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString()}`)
  installDependencies(dir)
  run('npm', ['run', 'build'], dir, `npm run build of ${build.label}`)
  if (!existsSync(join(build.dist, 'index.html')) || !existsSync(build.cli))
    throw new Error(`${build.label}: the build left no app or CLI`)
  writeFileSync(marker, `${new Date().toISOString()}\n`)
  return build
}

/** The working tree's build, made anew (into .bench/ab/work/). */
export function workingTreeBuild(): AbBuild {
  const dir = join(AB_DIR, 'work')
  const build: AbBuild = { label: 'work', sha: null, dist: join(dir, 'dist'), cli: join(dir, 'cli/dsh-lens.cjs') }
  log('building the working tree into .bench/ab/work/')
  const tsx = ['--import', 'tsx']
  run(process.execPath, [...tsx, 'src/cli/main.ts', 'generate-demo', 'public/demo/demo-session.jsonl'], ROOT, 'the demo')
  run('npx', ['vite', 'build', '--outDir', build.dist, '--emptyOutDir', '--logLevel', 'warn'], ROOT, 'vite build')
  run(process.execPath, [...tsx, 'src/build/build-cli.ts', '--outdir', resolve(dir, 'cli')], ROOT, 'build-cli')
  return build
}
