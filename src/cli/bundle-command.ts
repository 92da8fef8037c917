/**
 * `dsh-lens bundle FILE|ID -o session.html [--redact|--no-redact] [--with-subagents] [--redact-paths] [--allow HASH]...`:
 * one self-contained HTML file, the viewer and the session's log(s) inline, opening from `file://` with no server.
 * Redaction is on unless `--no-redact` is said (and the banner says it was). The viewer is the template
 * `npm run build:bundle` makes (dist-bundle/); the data is `src/core/export/offline-bundle.ts`'s.
 */

import { existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import {
  fillBundleTemplate,
  loadContentChecksum,
  sessionTitle,
  BUNDLE_FORMAT,
  BUNDLE_TEMPLATE_FILE,
  type BundleData,
  type BundleLog,
} from '../core/index.ts'
import { readLogHeader } from '../server/catalog/log-header.ts'
import { logsBelow } from '../server/catalog/log-discovery.ts'
import { PathGuard } from '../server/path-guard.ts'
import { defaultSessionsRoot } from './serve-command.ts'
import { findSessions } from './open-target.ts'
import { readLog } from './read-log.ts'
import { allowList, redactFile, SecretsUsageError, summary } from './secrets-command.ts'

export class BundleUsageError extends Error {}

/** The built template: dist-bundle/ of this package (beside dist/ and dist-cli/), or `--template FILE`. */
export function defaultTemplate(): string {
  const candidates = ['../../dist-bundle', '../dist-bundle'].map((rel) =>
    join(fileURLToPath(new URL(rel, import.meta.url)), BUNDLE_TEMPLATE_FILE),
  )
  return candidates.find((path) => existsSync(path)) ?? (candidates[0] as string)
}

/** FILE, or a session id (or an 8+ character prefix of one) under the dsh home. */
async function resolveLog(target: string): Promise<string> {
  if (existsSync(target)) return resolve(target)
  const found = await findSessions(defaultSessionsRoot(), target)
  if (found.length === 1) return (found[0] as { path: string }).path
  if (found.length === 0)
    throw new BundleUsageError(`${target} is no file, and no session under ${defaultSessionsRoot()} has that id`)
  throw new BundleUsageError(`${target} names ${found.length} sessions: ${found.map((f) => f.id).join(', ')}`)
}

/**
 * The subagent logs of `root` (by header: `parentSession` leading back to it), looked for where the harness and its
 * web export put them: below the session's own folder (`subagents/<id>/`) and in its project folder.
 */
async function subagentLogs(rootPath: string, rootId: string): Promise<string[]> {
  const checksum = await loadContentChecksum()
  const places = [dirname(rootPath), dirname(dirname(rootPath))]
  const parents = new Map<string, string>()
  for (const place of places) {
    const guard = await PathGuard.create([place], { allowMissing: true })
    for (const { path } of (await logsBelow(guard.roots[0] as string, guard)).logs) {
      const header = (await readLogHeader(path, checksum).catch(() => null))?.header
      const id = header?.['id']
      const parent = header?.['parentSession']
      if (typeof id === 'string' && typeof parent === 'string' && path !== rootPath) parents.set(path, `${parent}\u0000${id}`)
    }
  }
  const ids = new Set([rootId])
  const out: string[] = []
  // Children, then their children: until no new session joins.
  for (let grew = true; grew;) {
    grew = false
    for (const [path, link] of parents) {
      const [parent, id] = link.split('\u0000') as [string, string]
      if (ids.has(parent) && !ids.has(id)) {
        ids.add(id)
        out.push(path)
        grew = true
      }
    }
  }
  return out
}

export async function runBundle(args: readonly string[]): Promise<number> {
  const valueFlags = new Set(['-o', '--out', '--allow', '--template'])
  const positional = args.filter((a, i) => !a.startsWith('-') && !valueFlags.has(args[i - 1] ?? ''))
  if (positional.length !== 1) throw new BundleUsageError('bundle takes exactly one FILE or session ID')
  const o = args.findIndex((a) => a === '-o' || a === '--out')
  const target = o === -1 ? undefined : args[o + 1]
  if (target === undefined) throw new BundleUsageError('bundle needs -o OUT.html')
  if (args.includes('--redact') && args.includes('--no-redact'))
    throw new BundleUsageError('say --redact or --no-redact, not both')
  const redact = !args.includes('--no-redact')
  const redactPaths = args.includes('--redact-paths')
  let allow: Set<string>
  try {
    allow = allowList(args)
  } catch (error) {
    throw error instanceof SecretsUsageError ? new BundleUsageError(error.message) : error
  }
  const t = args.indexOf('--template')
  const template = t === -1 ? defaultTemplate() : (args[t + 1] as string)
  if (!existsSync(template)) {
    process.stderr.write(`dsh-lens: the bundle viewer is not built (no ${template}): run \`npm run build\` first\n`)
    return 2
  }
  const rootPath = await resolveLog(positional[0] as string)
  const root = await readLog(rootPath)
  const rootId = typeof root.header?.id === 'string' ? root.header.id : null
  const paths = [rootPath, ...(args.includes('--with-subagents') && rootId !== null ? await subagentLogs(rootPath, rootId) : [])]
  if (existsSync(target) && paths.some((p) => realpathSync(p) === realpathSync(target))) {
    process.stderr.write(`dsh-lens: refusing to write the bundle over a log it reads: name another -o OUT\n`)
    return 2
  }
  const logs: BundleLog[] = []
  const totals = { count: 0, secrets: 0, allowed: 0 }
  for (const path of paths) {
    let bytes: Uint8Array
    let encoding: 'jsonl' | 'zstd'
    if (redact) {
      const { out, compressed } = await redactFile(path, { allow, redactPaths })
      bytes = out.bytes
      encoding = out.encoding
      totals.count += out.redactions
      totals.secrets += out.secrets
      totals.allowed += out.allowed
      if (out.redactions > 0 || out.paths > 0)
        process.stderr.write(`dsh-lens: ${relative(process.cwd(), path)}: ${summary(out, compressed)}\n`)
    } else {
      bytes = new Uint8Array(readFileSync(path))
      encoding = bytes[0] === 0x28 ? 'zstd' : 'jsonl'
    }
    const header = path === rootPath ? root.header : (await readLogHeader(path, await loadContentChecksum())).header
    // A child as the web export lays it out: subagents/<its folder>/<its file>.
    const name = path === rootPath ? basename(path) : `subagents/${basename(dirname(path))}/${basename(path)}`
    logs.push({
      path: name,
      sessionId: typeof header?.['id'] === 'string' ? (header['id'] as string) : null,
      encoding,
      gzipBase64: Buffer.from(gzipSync(bytes, { level: 9 })).toString('base64'),
    })
  }
  const data: BundleData = {
    format: BUNDLE_FORMAT,
    madeAt: new Date().toISOString(),
    session: { id: rootId, title: sessionTitle(root) },
    redaction: { mode: redact ? 'redacted' : 'not-redacted', paths: redact && redactPaths, ...totals },
    logs,
    madeBy: `dsh-lens ${version()}`,
  }
  const html = fillBundleTemplate(readFileSync(template, 'utf8'), data)
  const tmp = `${target}.tmp-${process.pid}`
  writeFileSync(tmp, html)
  renameSync(tmp, target)
  const kb = (Buffer.byteLength(html) / 1024).toFixed(0)
  const how = redact ? `${totals.count} secret occurrence(s) redacted` : 'NOT redacted (--no-redact)'
  process.stderr.write(`dsh-lens: wrote ${target} (${kb} KB, ${logs.length} log(s), ${how})\n`)
  return 0
}

function version(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { version: string }).version
    } catch {
      // The next candidate (sources vs the built CLI).
    }
  }
  return 'unknown'
}
