/**
 * Several logs opened together (many files, a directory, or the harness's web export `dsh-session-*.zip` holding
 * `session.jsonl` and `subagents/<id>/session.jsonl`, format reference 1.8): which of them are session logs, their
 * headers and lineage facts (the core's `LineageScanner`, one pass each, no fold), the sessions tree, and every fork
 * seed checked against its parent. Runs in the lineage worker (zip inflating and scanning never block the page);
 * plain code over Blobs, so it also runs under Node in tests.
 *
 * Each session comes back as a File (a zip entry becomes a File made from its inflated bytes): the main thread keeps
 * these handles and hands the chosen one to the lens worker, which reads it again when the user opens it.
 */

import { unzipSync } from 'fflate'
import {
  LineageScanner,
  buildSessionTree,
  checkSeedPrefix,
  type ContentChecksum,
  type SeedCheck,
  type SessionHeader,
} from '../core/index.ts'
import type { BundleResult, BundleSource } from '../protocol/lineage.ts'

/** Longest seed kept in memory for the check (events); a longer seed is checked up to this many. */
export const SEED_CHECK_MAX = 200_000
const HEADER_PROBE_BYTES = 256 * 1024
const READ_SLICE_BYTES = 8 * 1024 * 1024

const isZipMagic = (b: Uint8Array): boolean => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04
/** Names a session log can have; `*.tmp` is a half-written materialization the harness leaves behind (1.1). */
const isLogName = (name: string): boolean => /\.(jsonl|zstd)$/i.test(name) && !/\.tmp$/i.test(name)

function baseName(path: string): string {
  return path.split('/').pop() ?? path
}

async function bytesOf(blob: Blob, end = blob.size): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, end).arrayBuffer())
}

/** Expand zips into their log entries; keep plain log files; say why anything else is left out. */
async function expand(
  sources: readonly BundleSource[],
  skipped: Array<{ path: string; why: string }>,
): Promise<Map<string, File>> {
  const files = new Map<string, File>()
  for (const source of sources) {
    const head = await bytesOf(source.blob, 4)
    if (isZipMagic(head)) {
      let entries: Record<string, Uint8Array>
      try {
        entries = unzipSync(await bytesOf(source.blob), { filter: (f) => isLogName(f.name) && !f.name.endsWith('/') })
      } catch (error) {
        skipped.push({ path: source.path, why: `not a readable zip: ${(error as Error).message}` })
        continue
      }
      for (const [name, bytes] of Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1))) {
        files.set(
          `${source.path}/${name}`,
          new File([bytes as Uint8Array<ArrayBuffer>], name.includes('/') ? name : baseName(name)),
        )
      }
      continue
    }
    if (!isLogName(source.path)) {
      skipped.push({ path: source.path, why: 'not a .jsonl / .jsonl.zstd / .zip file' })
      continue
    }
    files.set(source.path, source.blob instanceof File ? source.blob : new File([source.blob], baseName(source.path)))
  }
  return files
}

async function scan(
  blob: Blob,
  keep: number,
  checksum: ContentChecksum | undefined,
  probeOnly: boolean,
): Promise<LineageScanner> {
  const scanner = new LineageScanner(keep, checksum)
  const step = probeOnly ? HEADER_PROBE_BYTES : READ_SLICE_BYTES
  for (let at = 0; at < blob.size; at += step) {
    scanner.push(new Uint8Array(await blob.slice(at, at + step).arrayBuffer()))
    if (probeOnly && scanner.headerSeen) return scanner
  }
  scanner.finish()
  return scanner
}

export async function scanBundle(
  sources: readonly BundleSource[],
  checksum?: ContentChecksum,
  onProgress?: (done: number, total: number) => void,
): Promise<BundleResult> {
  const skipped: Array<{ path: string; why: string }> = []
  const files = await expand(sources, skipped)
  // Pass 1: headers only (a zstd log's first frame, a plain log's first line), to know who is whose parent and how
  // much of each log the seed checks need.
  const headers = new Map<string, SessionHeader>()
  for (const [key, file] of files) {
    const probe = await scan(file, 0, checksum, true)
    if (probe.header === null) {
      skipped.push({ path: key, why: probe.headerError ?? 'no session header' })
      files.delete(key)
    } else headers.set(key, probe.header)
  }
  const seedNeed = new Map<string, number>()
  for (const h of headers.values()) {
    if (typeof h.parentSession !== 'string' || typeof h.seedLength !== 'number') continue
    const need = Math.min(SEED_CHECK_MAX, h.seedLength)
    seedNeed.set(h.parentSession, Math.max(seedNeed.get(h.parentSession) ?? 0, need))
  }
  // Pass 2: one full scan per log for its facts, event count and the seed events.
  const scanned = new Map<string, LineageScanner>()
  let done = 0
  for (const [key, file] of files) {
    const h = headers.get(key) as SessionHeader
    const keep = Math.max(seedNeed.get(h.id) ?? 0, typeof h.seedLength === 'number' ? Math.min(SEED_CHECK_MAX, h.seedLength) : 0)
    scanned.set(key, await scan(file, keep, checksum, false))
    onProgress?.(++done, files.size)
  }
  const tree = buildSessionTree(
    [...scanned].map(([key, s]) => ({ key, header: s.header, eventCount: s.eventCount, facts: s.facts() })),
  )
  const seeds: Record<string, SeedCheck> = {}
  for (const [key, node] of tree.nodes) {
    if (node.seedLength === null || node.parentKey === null) continue
    const parent = scanned.get(node.parentKey) as LineageScanner
    const child = scanned.get(key) as LineageScanner
    const check = checkSeedPrefix(
      Math.min(SEED_CHECK_MAX, node.seedLength),
      (i) => parent.kept[i],
      (i) => child.kept[i],
    )
    seeds[key] = { ...check, seedLength: node.seedLength }
  }
  const sessions = tree.order.map((key) => ({
    key,
    file: files.get(key) as File,
    header: headers.get(key) as SessionHeader,
    eventCount: (scanned.get(key) as LineageScanner).eventCount,
  }))
  return { sessions, tree, seeds, skipped }
}
