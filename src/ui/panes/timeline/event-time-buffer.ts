/**
 * The event times the replay paces the cursor by, fetched from the worker in windows as the cursor nears the end of
 * what is loaded, so a 1.3M-event log is never read whole: the replay holds a few windows around the cursor.
 */

/** Events per window asked for. */
export const TIME_WINDOW = 4096
/** Windows kept: the one the cursor is in and the next (older ones are dropped as the replay moves on). */
const WINDOWS_KEPT = 3

export type FetchTimes = (from: number, count: number) => Promise<Float64Array>

export class EventTimeBuffer {
  private readonly windows = new Map<number, Float64Array>()
  private readonly pending = new Set<number>()

  constructor(private readonly fetchTimes: FetchTimes) {}

  /** Event `index`'s time (NaN: none), or undefined while its window is not here; asks for it (and the next) then. */
  get(index: number): number | undefined {
    const start = index - (index % TIME_WINDOW)
    const times = this.windows.get(start)
    if (times === undefined) {
      this.request(start)
      return undefined
    }
    // Close to the window's end: the next one is asked for before the replay reaches it.
    if (index - start > TIME_WINDOW / 2) this.request(start + TIME_WINDOW)
    if (index - start < times.length) return times[index - start]
    // Fetched while the log was shorter (a live log grows): ask again.
    this.windows.delete(start)
    this.request(start)
    return undefined
  }

  private request(start: number): void {
    if (this.windows.has(start) || this.pending.has(start)) return
    this.pending.add(start)
    this.fetchTimes(start, TIME_WINDOW).then(
      (times) => {
        this.pending.delete(start)
        this.windows.set(start, times)
        for (const key of [...this.windows.keys()].sort((a, b) => a - b).slice(0, -WINDOWS_KEPT)) this.windows.delete(key)
      },
      () => this.pending.delete(start),
    )
  }
}
