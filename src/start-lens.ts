/**
 * The first module the page evaluates (main.tsx imports it before React): the worker, the store, and the page's
 * own source. ES modules run in import order, so the worker starts and `?log=` downloads and folds while React's
 * modules are still being evaluated and the first render runs; nothing here imports React.
 */

import { BUNDLE_ELEMENT_ID, readBundleData } from './core/export/offline-bundle.ts'
import { TailClient } from './live/tail-client.ts'
import { createLensStore } from './store/create-lens-store.ts'
import { openInitialSource } from './ui/app/initial-source.ts'
import { liveParamsOf, pageSource, servedMarker, servedRateCard } from './ui/app/page-source.ts'
import { initialTheme } from './ui/app/initial-theme.ts'
import { initialCurrency } from './ui/app/currency-preference.ts'
import { themeChartColors } from './ui/shared/theme-colors.ts'
import { createLineageClient } from './worker/lineage-client.ts'
import { createWorkerClient } from './worker/worker-client.ts'

/**
 * What this page opens (read once: later navigation within the page is the store's live actions' business). An offline
 * bundle (`dsh-lens bundle`, Share…: docs/secrets.md) carries its data in the page and opens its own logs.
 */
export const source = pageSource(
  window.location.search,
  servedMarker(document),
  readBundleData(document.getElementById(BUNDLE_ELEMENT_ID)?.textContent),
)
const live = liveParamsOf(source, window.location)
/** The page's one store, with the clients it talks through: the lens worker, the lineage worker, the live server. */
export const store = createLensStore({
  lens: createWorkerClient(),
  lineage: createLineageClient(),
  live:
    live === null
      ? null
      : {
          client: new TailClient({
            url: live.ws,
            ...(live.token === null ? {} : { token: live.token }),
            client: 'dsh-lens-viewer/0.1',
          }),
          params: live,
        },
})
// The server's rate card (`--rates`) goes to the worker before the log does: every cost answer is priced with it.
const rateCard = servedRateCard(document)
if (rateCard !== null) void store.getState().applyRateCard(rateCard)
openInitialSource(store, source)
// The server's stream connects while React loads (as `?log=` downloads): the sessions list is there sooner.
store.getState().startLive()
if (source.kind === 'file-link') {
  const { name, size, sha256 } = source
  store.getState().expectFile({ name, size, sha256, hash: window.location.hash })
}

const theme = initialTheme()
document.documentElement.dataset['theme'] = theme
store.getState().setTheme(theme)
store.getState().setCurrency(initialCurrency(window.location.search))
// The canvases' colours, read while the page is an empty shell: read at the first render instead, the style of the
// whole new page was recalculated inside that task first.
themeChartColors()
