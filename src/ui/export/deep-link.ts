/**
 * Pure: the deep link to the current state. The page URL as it is (`?log=` or `?ws=…&session=…` included) with the
 * hash's `seq` and `sel` set from the cursor and selection; every other hash parameter (such as `step`) is kept.
 */

export function deepLink(href: string, seq: number | null, sel: number | null): string {
  const url = new URL(href)
  const params = new URLSearchParams(url.hash.replace(/^#/, ''))
  if (seq === null) params.delete('seq')
  else params.set('seq', String(seq))
  if (sel === null) params.delete('sel')
  else params.set('sel', String(sel))
  // seq first, then sel, then the rest in their order: the same shape `formatHash` writes.
  const rest = [...params].filter(([k]) => k !== 'seq' && k !== 'sel')
  const ordered = new URLSearchParams([
    ...(seq !== null ? [['seq', String(seq)]] : []),
    ...(sel !== null ? [['sel', String(sel)]] : []),
    ...rest,
  ])
  const hash = ordered.toString()
  url.hash = hash === '' ? '' : hash
  return url.toString()
}

/** The token of a live link stays out of a copied link: it grants access to the server. */
export function withoutToken(href: string): string {
  const url = new URL(href)
  // Untouched unless there is a token: re-serializing the query would percent-encode a `?log=` path.
  if (!url.searchParams.has('token')) return href
  url.searchParams.delete('token')
  return url.toString()
}

/** A download name for a prefix of `name` through `seq`: `<base>.to-seq-<seq>.session.jsonl`. */
export function prefixFileName(name: string, seq: number): string {
  const base =
    (name.split('/').pop() ?? name).replace(/\.jsonl(\.zstd)?$|\.zstd$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_') || 'session'
  return `${base}.to-seq-${seq}.session.jsonl`
}
