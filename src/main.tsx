/** App entry: the worker, the store and the page's source first (start-lens.ts), then the staged boot (boot-app.ts). */

// First import, first evaluated: see start-lens.ts.
import { source, store } from './start-lens.ts'
import '@xyflow/react/dist/style.css'
import './ui/theme.css'
import { bootApp } from './ui/app/boot-app.ts'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html has no #root element')
void bootApp(store, root, source)
