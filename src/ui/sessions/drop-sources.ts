/**
 * The page's drop target: a single plain log keeps the one-file flow (`loadFile`, unchanged); several files, a
 * folder or a zip go to the sessions bundle.
 */

import type { LensStore } from '../../store/create-lens-store.ts'
import { droppedEntries, isSingleLog, sourcesFromEntries, sourcesFromFiles } from './collect-sources.ts'

export function handleDrop(transfer: DataTransfer, lens: LensStore): void {
  const { entries, files } = droppedEntries(transfer)
  if (files.length === 0 && entries.length === 0) return
  if (isSingleLog(entries, files)) {
    lens.getState().loadFile(files[0] as File)
    return
  }
  if (entries.length === 0) {
    lens.getState().openBundle(sourcesFromFiles(files))
    return
  }
  void sourcesFromEntries(entries).then(
    (sources) => lens.getState().openBundle(sources),
    () => lens.getState().openBundle(sourcesFromFiles(files)),
  )
}
