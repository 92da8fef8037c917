// Runs the harness's own DeepSeek adapter (the installed @deepseek-ai/dsh-llm-deepseek, with the harness's Node) over
// a canned chat-completions stream whose final chunk carries the wire usage given as argv[2], and prints the usage
// chunk(s) the adapter yields: what the harness logs as `usage`. fetch is stubbed: nothing leaves the machine.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const dir = process.env.REAL_DSH_DIR
const { DeepSeekAdapter } = await import(pathToFileURL(join(dir, 'node_modules/@deepseek-ai/dsh-llm-deepseek/lib/index.js')).href)
const wire = JSON.parse(process.argv[2])
const sse = [
  {
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Think.' }, finish_reason: null }],
  },
  { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hello.' }, finish_reason: null }] },
  { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: wire },
]
  .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
  .join('')
globalThis.fetch = async () =>
  new Response(new Blob([sse + 'data: [DONE]\n\n']).stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } })
const adapter = new DeepSeekAdapter({
  options: () => ({
    baseURL: 'http://127.0.0.1:9',
    models: [],
    defaultContextWindow: 128000,
    maxTokens: 4096,
    defaults: {},
    streamIdleTimeoutMs: 30000,
    maxRequestImageBytes: 1 << 20,
  }),
  resolveApiKey: async () => 'sk-test-not-a-key',
  resolveUserId: () => 'lens-test',
})
const usages = []
for await (const chunk of adapter.stream({
  provider: 'deepseek-official',
  model: 'deepseek-flash',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
}))
  if (chunk.type === 'usage') usages.push(chunk.usage)
process.stdout.write(JSON.stringify(usages))
