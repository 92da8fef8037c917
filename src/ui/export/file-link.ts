/**
 * Pure: the address of a dropped or picked file. A page cannot reopen a file from the user's disk, so its link names
 * the file instead (`?file=<name>&size=<n>&sha256=<first 16 hex>`): opened in a new page, it asks for that file and
 * tells the right one from another by its digest (page-source.ts, `link-needs-file`).
 */

import type { FileIdentity } from '../../store/slices/source-slice.ts'

/** `href` with its query replaced by the file's (the hash kept). */
export function fileLinkHref(href: string, file: FileIdentity): string {
  const url = new URL(href)
  const params = new URLSearchParams()
  params.set('file', file.name)
  params.set('size', String(file.size))
  if (file.sha256 !== null) params.set('sha256', file.sha256)
  url.search = params.toString()
  return url.toString()
}
