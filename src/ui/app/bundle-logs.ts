/**
 * An offline bundle's logs (its data element: gzip, base64), opened as dropped files are: one log in the viewer,
 * several as a sessions bundle (the drawer, its tree). Decoded with the browser's own `DecompressionStream`, no
 * library; a bundle whose data does not decode says so instead of showing nothing.
 */

import type { BundleData } from '../../core/export/offline-bundle.ts'
import type { BundleSource } from '../../protocol/lineage.ts'
import type { LensStore } from '../../store/create-lens-store.ts'

function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64
  return native?.(text) ?? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}

/** The bundle's logs as files named as the bundle names them. */
export async function bundleFiles(data: BundleData): Promise<BundleSource[]> {
  return Promise.all(
    data.logs.map(async (log) => {
      const plain = new Blob([fromBase64(log.gzipBase64) as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'))
      const blob = new File([await new Response(plain).blob()], log.path.split('/').pop() ?? log.path)
      return { path: log.path, blob }
    }),
  )
}

export async function openBundleLogs(store: LensStore, data: BundleData): Promise<void> {
  let files: BundleSource[]
  try {
    files = await bundleFiles(data)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    store.getState().failLoad(data.logs[0]?.path ?? 'bundle', `This bundle's log data is damaged and cannot be read (${why}).`)
    return
  }
  const [first] = files
  if (files.length === 1 && first !== undefined) store.getState().loadFile(first.blob as File)
  else store.getState().openBundle(files)
}
