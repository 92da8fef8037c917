/**
 * How dsh-lens runs Chromium, shared by the Playwright config and the browser
 * bench: Debian's /usr/bin/chromium when present (`npx playwright install` cannot
 * download on our machines), else Playwright's own browser.
 */

import { existsSync } from 'node:fs'

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

/**
 * --no-sandbox: containers run as root without user namespaces; the next four keep Chromium off the network.
 * --disable-features: headless Chromium 156 opens a renderer for the omnibox popup's WebUI
 * (chrome://omnibox-popup.top-chrome/) in every new browser context, and it burns CPU in its first seconds,
 * exactly while a test or a bench round navigates: on 2 vCPUs that stole a large share of the page's main thread. A
 * user's window made its popup when it opened, not when a link is followed, so the bench should not pay for it.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
]

/** Launch options for Playwright's `chromium.launch` / `use.launchOptions`. */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): { executablePath?: string; args: string[] } {
  return {
    ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: [...CHROMIUM_ARGS, ...extraArgs],
  }
}
