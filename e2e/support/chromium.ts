/**
 * How dsh-lens runs Chromium, shared by the Playwright config and the browser
 * bench: Debian's /usr/bin/chromium when present (`npx playwright install` cannot
 * download on our machines), else Playwright's own browser.
 */

import { existsSync } from 'node:fs'

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

/** --no-sandbox: containers run as root without user namespaces; the rest keeps Chromium off the network. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Launch options for Playwright's `chromium.launch` / `use.launchOptions`. */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): { executablePath?: string; args: string[] } {
  return {
    ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: [...CHROMIUM_ARGS, ...extraArgs],
  }
}
