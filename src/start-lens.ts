/**
 * The first module the page evaluates (main.tsx imports it before React): the worker, the store, and the page's
 * own source. ES modules run in import order, so the worker starts and `?log=` downloads and folds while React's
 * modules are still being evaluated and the first render runs; nothing here imports React.
 */

import { createLensStore } from './store/create-lens-store.ts'
import { openInitialSource } from './ui/app/initial-source.ts'
import { pageSource, servedMarker } from './ui/app/page-source.ts'
import { initialTheme } from './ui/app/initial-theme.ts'
import { themeChartColors } from './ui/shared/theme-colors.ts'
import { createLineageClient } from './worker/lineage-client.ts'
import { createWorkerClient } from './worker/worker-client.ts'

export const store = createLensStore({ lens: createWorkerClient(), lineage: createLineageClient() })
/** What this page opens (read once: later navigation within the page is the controllers' business). */
export const source = pageSource(window.location.search, servedMarker(document))
openInitialSource(store, source)
if (source.kind === 'file-link') {
  const { name, size, sha256 } = source
  store.getState().expectFile({ name, size, sha256, hash: window.location.hash })
}

const theme = initialTheme()
document.documentElement.dataset['theme'] = theme
store.getState().setTheme(theme)
// The canvases' colours, read while the page is an empty shell: read at the first render instead, the style of the
// whole new page was recalculated inside that task first.
themeChartColors()
