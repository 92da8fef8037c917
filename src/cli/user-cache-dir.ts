/**
 * The user's cache directory for dsh-lens's derived data (indexes, caches): `$XDG_CACHE_HOME/dsh-lens`, or
 * `~/.cache/dsh-lens` when XDG_CACHE_HOME is unset, blank or not absolute (the XDG base directory rule: a relative
 * path is invalid and ignored). Only a path: creating it, owner-only, is the caller's job. Never under the dsh home:
 * what is written there is derived, rebuilt when damaged, and never trusted.
 */

import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME']
  const home = env['HOME'] !== undefined && isAbsolute(env['HOME']) ? env['HOME'] : homedir()
  const base = xdg !== undefined && xdg.trim() !== '' && isAbsolute(xdg) ? xdg : join(home, '.cache')
  return join(base, 'dsh-lens')
}
