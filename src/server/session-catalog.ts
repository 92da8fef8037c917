/**
 * Finds the session logs below the served paths (a session file, a session directory, or a sessions root
 * laid out as `<root>/--<project>--/<id>/session.jsonl[.zstd]`) and lists them from their headers alone,
 * with parent/child links. `*.tmp` materialization files are never listed.
 */

import { constants } from 'node:fs'
import { open, readdir, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { hasZstdMagic, judgeHeaderLine, type ContentChecksum } from '../core/index.ts'
import type { SessionListItem } from '../live/protocol.ts'
import type { PathGuard } from './path-guard.ts'
import { PlainLineReader } from './plain-lines.ts'

export const LOG_NAMES = ['session.jsonl.zstd', 'session.jsonl'] as const

/** What a tail already knows about a file, so the list can say whether a turn is open. */
export type LiveFacts = (
  path: string,
  sizeBytes: number,
  mtimeMs: number,
) => Promise<{ turnOpen: boolean; lastSeq: number } | undefined>

interface HeaderFacts {
  readonly encoding: 'zstd' | 'jsonl'
  readonly header: Record<string, unknown> | null
  /** The header line's text as decoded, when there is one. */
  readonly line?: string
  readonly error?: string
}

const HEADER_READ_LIMIT = 1024 * 1024

/** Read just enough of a log to decode its first line (zstd frame 1, or the first JSONL line). */
export async function readHeader(path: string, checksum: ContentChecksum | undefined): Promise<HeaderFacts> {
  // O_NONBLOCK and an fstat: a FIFO or device swapped in after the guard's check is refused, never read or waited on.
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    if (!(await fh.stat()).isFile()) return { encoding: 'jsonl', header: null, error: 'not a regular file' }
    let text: string | undefined
    let corrupt: string | undefined
    let reader: PlainLineReader | undefined
    let position = 0
    while (text === undefined && corrupt === undefined && position < HEADER_READ_LIMIT) {
      const buffer = new Uint8Array(16 * 1024)
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) break
      const bytes = buffer.subarray(0, bytesRead)
      reader ??= new PlainLineReader(
        hasZstdMagic(bytes) ? 'zstd' : 'jsonl',
        0,
        {
          line: (line) => {
            text ??= line.text
          },
          // A damaged first frame is as bad as a broken one here: the header is in it.
          defect: (defect) => {
            corrupt ??= defect.message
          },
          corrupt: (message) => {
            corrupt = message
          },
        },
        checksum,
      )
      reader.push(bytes)
      position += bytesRead
    }
    const encoding = reader?.encoding ?? 'jsonl'
    if (text === undefined) return { encoding, header: null, error: corrupt ?? 'no complete header line yet' }
    const verdict = judgeHeaderLine(text)
    const header = (verdict.header as Record<string, unknown> | null) ?? null
    return verdict.defect === undefined
      ? { encoding, header, line: text }
      : { encoding, header, line: text, error: verdict.defect.message }
  } finally {
    await fh.close()
  }
}

async function logIn(dir: string): Promise<string | undefined> {
  for (const name of LOG_NAMES) {
    try {
      if ((await stat(join(dir, name))).isFile()) return join(dir, name)
    } catch {
      // not this encoding
    }
  }
  return undefined
}

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true })
    return entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => join(dir, e.name))
  } catch {
    return []
  }
}

/** Every log file below one served path, as real paths inside the fence. */
async function logsBelow(root: string, guard: PathGuard): Promise<string[]> {
  const st = await stat(root)
  const found: string[] = []
  const admit = async (candidate: string | undefined): Promise<void> => {
    if (candidate === undefined) return
    const real = await guard.resolveFile(candidate)
    if (real !== undefined) found.push(real)
  }
  if (st.isFile()) {
    await admit(root)
    return found
  }
  const direct = await logIn(root)
  if (direct !== undefined) {
    await admit(direct)
    return found
  }
  // A sessions root holds project dirs of session dirs; a project dir given directly holds session dirs.
  for (const child of await subdirs(root)) {
    const own = await logIn(child)
    if (own !== undefined) await admit(own)
    else for (const session of await subdirs(child)) await admit(await logIn(session))
  }
  return found
}

export class SessionCatalog {
  private items: SessionListItem[] = []

  constructor(
    private readonly guard: PathGuard,
    private readonly checksum: ContentChecksum | undefined,
  ) {}

  /** Re-scan the roots. */
  async refresh(live: LiveFacts): Promise<readonly SessionListItem[]> {
    const paths = new Set<string>()
    for (const root of this.guard.roots) for (const p of await logsBelow(root, this.guard)) paths.add(await realpath(p))
    const drafts: Array<Omit<SessionListItem, 'children'> & { children: string[] }> = []
    for (const path of paths) {
      let st
      let facts: HeaderFacts
      try {
        st = await stat(path)
        facts = await readHeader(path, this.checksum)
      } catch (error) {
        facts = { encoding: 'jsonl', header: null, error: `unreadable: ${(error as Error).message}` }
      }
      const h = facts.header
      const str = (key: string): string | undefined => (typeof h?.[key] === 'string' ? (h[key] as string) : undefined)
      const known = st === undefined ? undefined : await live(path, st.size, st.mtimeMs)
      const id = str('id')
      drafts.push({
        sessionId: id ?? path,
        path,
        encoding: facts.encoding,
        ...(str('cwd') === undefined ? {} : { cwd: str('cwd') as string }),
        ...(typeof h?.['createdAt'] === 'number' ? { createdAt: h['createdAt'] } : {}),
        ...(str('parentSession') === undefined ? {} : { parentSession: str('parentSession') as string }),
        ...(str('origin') === undefined ? {} : { origin: str('origin') as string }),
        ...(str('agentPreset') === undefined ? {} : { agentPreset: str('agentPreset') as string }),
        children: [],
        sizeBytes: st?.size ?? 0,
        mtimeMs: st?.mtimeMs ?? 0,
        turnOpen: known?.turnOpen ?? null,
        lastSeq: known?.lastSeq ?? null,
        ...(facts.error === undefined ? {} : { headerError: facts.error }),
      })
    }
    const byId = new Map(drafts.map((d) => [d.sessionId, d]))
    for (const d of drafts) if (d.parentSession !== undefined) byId.get(d.parentSession)?.children.push(d.sessionId)
    drafts.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || a.path.localeCompare(b.path))
    this.items = drafts
    return drafts
  }

  /** The listed path for an id (from the last refresh). */
  pathOf(sessionId: string): string | undefined {
    return this.items.find((item) => item.sessionId === sessionId)?.path
  }
}
