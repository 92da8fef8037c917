/** A duration for people: ms under a second, one decimal under a minute, then minutes (and hours) with seconds. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
}

/** Tokens per second with one decimal (null: the log does not say). */
export function formatRate(perSecond: number | null): string {
  return perSecond === null ? '—' : `${perSecond.toFixed(1)} tok/s`
}

/** A share as a percentage with one decimal (null: the log does not say). */
export function formatShare(share: number | null): string {
  return share === null ? '—' : `${(share * 100).toFixed(1)}%`
}
