/**
 * The harness's own session invariant companion as a test oracle. Its published module
 * (`@deepseek-ai/dsh-session/invariant`) imports `assertNever` from `@deepseek-ai/dsh-llm`, which is
 * not installed; everything else it needs is in the file. So the test loads a copy of that file with
 * that one import replaced by a stub (it is only reached on an impossible transition), installs the
 * companion into a fake context with one session, and lets it seed: it throws at the first event
 * that breaks an invariant, with its own text. The prefix is the one its invariant service adds
 * (`InvariantError`, reference 3.3).
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

type Install = (ctx: unknown, fail: (message: string) => never) => void

const IMPORT = 'import { assertNever } from "@deepseek-ai/dsh-llm";'

async function loadInstall(): Promise<Install> {
  const path = createRequire(import.meta.url).resolve('@deepseek-ai/dsh-session/invariant')
  const source = readFileSync(path, 'utf8')
  if (!source.includes(IMPORT)) throw new Error(`the companion's imports changed: ${path}`)
  const stubbed = source.replace(IMPORT, 'const assertNever = (_value, what) => { throw new Error(`unreachable: ${what}`) };')
  const copy = join(mkdtempSync(join(tmpdir(), 'dsh-session-invariant-')), 'invariant.mjs')
  writeFileSync(copy, stubbed)
  const mod = (await import(pathToFileURL(copy).href)) as { apply: (ctx: unknown) => Promise<unknown>; name: string }
  let install: Install | undefined
  await mod.apply({
    invariants: {
      register: (packageName: string, installer: Install) => {
        if (packageName !== '@deepseek-ai/dsh-session') throw new Error(`unexpected package ${packageName}`)
        install = installer
      },
    },
  })
  if (install === undefined) throw new Error('the companion did not register')
  return install
}

const install = await loadInstall()

class InvariantError extends Error {}

export interface SessionInvariantVerdict {
  /** Index of the event the companion refuses; null when it accepts the whole log. */
  readonly index: number | null
  /** `invariant violated by "@deepseek-ai/dsh-session": ...`, or the TypeError it threw on malformed data. */
  readonly message: string | null
  /** Whether it failed with its own invariant text (false: a TypeError on malformed data). */
  readonly invariant: boolean
}

/** What the harness's session companion says when it seeds a session holding `events`. */
export function sessionInvariantVerdict(events: readonly unknown[]): SessionInvariantVerdict {
  let at = -1
  const session = {
    events: {
      *[Symbol.iterator]() {
        for (at = 0; at < events.length; at++) yield events[at]
      },
    },
  }
  const ctx = { sessions: { list: () => [session] }, on: () => undefined }
  try {
    install(ctx, (message) => {
      throw new InvariantError(`invariant violated by "@deepseek-ai/dsh-session": ${message}`)
    })
  } catch (error) {
    return {
      index: at,
      message: error instanceof Error ? error.message : String(error),
      invariant: error instanceof InvariantError,
    }
  }
  return { index: null, message: null, invariant: false }
}
