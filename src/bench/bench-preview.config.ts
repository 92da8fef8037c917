/**
 * `vite preview` as the browser bench runs it: the app's own config, with every response sent uncompressed.
 * vite preview gzips on the fly whatever it takes for text, the bench's `?log=` file included (CPU in the server
 * process, on the same 2 vCPUs as the page being measured). A remote host's CPU is not the user's, and
 * `lens serve`, the viewer's own server, sends files as they are with their length; so the bench serves them
 * the same way. A Content-Encoding already set is what makes the compression middleware stand aside.
 */

import { mergeConfig } from 'vite'
import appConfig from '../../vite.config.ts'

export default mergeConfig(appConfig, { preview: { headers: { 'Content-Encoding': 'identity' } } })
