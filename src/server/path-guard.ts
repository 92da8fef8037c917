/**
 * The read fence: every file the server opens must resolve (realpath, so symlinks are followed first)
 * to a place at or below one of the paths it was started with. Nothing here writes.
 */

import { realpath, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/** Whether real path `child` is `root` itself or below it. */
export function isWithin(root: string, child: string): boolean {
  const rel = relative(root, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..')
}

export class PathGuard {
  private constructor(private readonly realRoots: readonly string[]) {}

  /**
   * Resolve the given roots once; a root that does not exist is an error the user must see, unless `allowMissing`
   * (the dsh home before dsh's first run): then it is fenced at the real path it will have once created (its nearest
   * existing ancestor resolved, the rest appended), and files appear in it as soon as they exist.
   */
  static async create(roots: readonly string[], options: { readonly allowMissing?: boolean } = {}): Promise<PathGuard> {
    const real: string[] = []
    for (const root of roots) {
      const absolute = resolve(root)
      real.push(options.allowMissing === true ? await realpathOfMissing(absolute) : await realpath(absolute))
    }
    return new PathGuard(real)
  }

  get roots(): readonly string[] {
    return this.realRoots
  }

  /**
   * The real path of `candidate` when it is a regular file below a root, else undefined. A `..` segment
   * is refused outright (before resolution) so that intent, not just outcome, is fenced.
   */
  async resolveFile(candidate: string): Promise<string | undefined> {
    if (candidate.includes('\0') || candidate.split(/[\\/]/).includes('..') || !isAbsolute(candidate)) return undefined
    let real: string
    try {
      real = await realpath(candidate)
      if (!(await stat(real)).isFile()) return undefined
    } catch {
      return undefined
    }
    if (real.endsWith('.tmp')) return undefined
    return this.realRoots.some((root) => isWithin(root, real)) ? real : undefined
  }
}

/** The real path `path` has, or will have once created: its nearest existing ancestor resolved, the rest kept. */
async function realpathOfMissing(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(path) === path) throw error
    return join(await realpathOfMissing(dirname(path)), basename(path))
  }
}
