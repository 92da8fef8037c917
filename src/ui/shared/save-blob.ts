/**
 * Save a Blob made in the worker as a download named `name`: a link clicked, its URL let go a minute later (a
 * browser may still be reading it when the click returns).
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
