/**
 * Remembered UI preferences (theme, open strips). `localStorage` throws where the browser denies storage (an
 * iframe with third-party storage blocked, some privacy modes): a preference is a nicety, so it is then simply not
 * remembered instead of taking the whole app down before its first render.
 */

export function readPreference(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writePreference(key: string, value: string): void {
  try {
    localStorage.setItem(key, value)
  } catch {
    // Not remembered; nothing else depends on it.
  }
}
