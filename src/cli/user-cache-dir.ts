/**
 * Where dsh-lens keeps what it derives (digests, indexes): `$XDG_CACHE_HOME/dsh-lens` when that is an absolute path,
 * else `~/.cache/dsh-lens`. Never the dsh home: derived data is rebuilt, never trusted, and nothing is written there.
 */

import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME']
  // The XDG spec: a relative value is invalid and must be ignored.
  if (xdg !== undefined && xdg.trim() !== '' && isAbsolute(xdg)) return join(xdg, 'dsh-lens')
  return join(env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir(), '.cache', 'dsh-lens')
}
