/** The expected answers, from the same pure core run in Node on the same bytes the browser gets. */

import { LensLog, loadContentChecksum } from '../../src/core/index.ts'

export async function foldInNode(bytes: Uint8Array | string): Promise<LensLog> {
  const log = new LensLog({ checksum: await loadContentChecksum() })
  log.push(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes)
  log.finish()
  return log
}
