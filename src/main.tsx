/** App entry: one worker, one store (both started by start-lens.ts, first), one provider. */

// First import, first evaluated: see start-lens.ts.
import { store } from './start-lens.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './ui/theme.css'
import { LensProvider } from './store/lens-store-context.tsx'
import { App } from './ui/app/App.tsx'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <LensProvider store={store}>
      <App />
    </LensProvider>
  </StrictMode>,
)
