/** App entry: one worker, one store, one provider. */

import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './ui/theme.css'
import { createLensStore } from './store/create-lens-store.ts'
import { LensProvider } from './store/lens-store-context.tsx'
import { App } from './ui/app/App.tsx'
import { createWorkerClient } from './worker/worker-client.ts'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html has no #root element')
const store = createLensStore(createWorkerClient())

createRoot(root).render(
  <StrictMode>
    <LensProvider store={store}>
      <App />
    </LensProvider>
  </StrictMode>,
)
