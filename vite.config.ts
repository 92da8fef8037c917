/** App build: React, Tailwind 4, and the lens worker as an ES module worker. */

import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { bootPreloadPlugin } from './src/build/boot-preload-plugin.ts'
import { bundleTemplatePlugin } from './src/build/bundle-template-plugin.ts'
import { cspPlugin } from './src/build/csp-plugin.ts'
import { uplotLazyIntlPlugin } from './src/build/uplot-lazy-intl-plugin.ts'

export default defineConfig({
  // cspPlugin: the built index.html carries the Content-Security-Policy (src/build/content-security-policy.ts).
  // uplotLazyIntlPlugin: uPlot's module-level Intl objects made on first use (the first one costs 35-90 ms).
  // bootPreloadPlugin: the staged boot's chunks (src/ui/app/boot-app.ts) fetched beside the entry.
  // bundleTemplatePlugin: `vite preview` serves dist-bundle/'s offline bundle template to the page's Share….
  plugins: [react(), tailwindcss(), cspPlugin(), uplotLazyIntlPlugin(), bootPreloadPlugin(), bundleTemplatePlugin()],
  // The worker imports the core as ES modules (and xxhash-wasm's embedded WebAssembly); 'iife' cannot code-split.
  worker: { format: 'es' },
  // 4178: a strict, non-default port so e2e never talks to some other dev server left running on 4173/5173.
  preview: { port: 4178, strictPort: true },
  build: { target: 'es2022', sourcemap: true },
})
