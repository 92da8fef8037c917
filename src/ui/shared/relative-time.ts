/** How long ago a time was, as the sessions home and the live status line both say it. */

/** "just now", "3 min ago", "5 h ago", "2 days ago", then the date. */
export function relativeTime(ms: number, now: number): string {
  const seconds = Math.round((now - ms) / 1000)
  if (seconds < 45) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  const days = Math.round(hours / 24)
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`
  return new Date(ms).toISOString().slice(0, 10)
}
