/**
 * What the user handed the page, as bundle sources: dropped items (files, folders via `webkitGetAsEntry`, read
 * recursively) or the files of an `<input multiple>` / `<input webkitdirectory>` (their `webkitRelativePath`).
 * Main thread, but only file handles: no bytes are read here.
 */

import type { BundleSource } from '../../protocol/lineage.ts'

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject))
}

async function walk(entry: FileSystemEntry, out: BundleSource[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
    out.push({ path: entry.fullPath.replace(/^\//, ''), blob: file })
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  // readEntries hands out at most ~100 entries per call: call until it returns none.
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, out)
  }
}

/** The drop as entries, taken synchronously (DataTransfer items die when the event handler returns). */
export function droppedEntries(transfer: DataTransfer): { entries: FileSystemEntry[]; files: File[] } {
  const entries: FileSystemEntry[] = []
  for (const item of Array.from(transfer.items)) {
    const entry = item.kind === 'file' ? item.webkitGetAsEntry?.() : null
    if (entry !== null && entry !== undefined) entries.push(entry)
  }
  return { entries, files: Array.from(transfer.files) }
}

export async function sourcesFromEntries(entries: readonly FileSystemEntry[]): Promise<BundleSource[]> {
  const out: BundleSource[] = []
  for (const entry of entries) await walk(entry, out)
  return out
}

export function sourcesFromFiles(files: Iterable<File>): BundleSource[] {
  return Array.from(files, (file) => ({ path: file.webkitRelativePath !== '' ? file.webkitRelativePath : file.name, blob: file }))
}

const plainLogs = (entries: readonly FileSystemEntry[], files: readonly File[], count: number): boolean =>
  files.length === count && entries.every((e) => e.isFile) && files.every((f) => !/\.zip$/i.test(f.name))

/** A single plain log (not a zip, not a folder) keeps the original one-file flow. */
export function isSingleLog(entries: readonly FileSystemEntry[], files: readonly File[]): boolean {
  return plainLogs(entries, files, 1)
}

/** Two plain logs dropped together: two runs to compare. */
export function isTwoLogs(entries: readonly FileSystemEntry[], files: readonly File[]): boolean {
  return plainLogs(entries, files, 2)
}
