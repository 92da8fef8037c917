// Lint rules, including the fences that keep the layout a picture of the architecture (docs/architecture.md): every row
// of its tables is a fence here, and src/build/architecture-doc.test.ts checks the tables, these fences and the tree's
// imports against each other.
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const ROOT = dirname(fileURLToPath(import.meta.url))
const SRC = join(ROOT, 'src')

/**
 * The folders of src/ and what each may import (the "may import" column of docs/architecture.md): other folders of
 * src/ (`'*'`: any), paths outside src/ (`outside`), and where it runs: `anywhere` (a page, a worker and Node alike: no
 * Node APIs, no UI libraries), `browser` (no Node APIs), `node` (Node APIs allowed: "Node" in the table).
 */
export const LAYERS = {
  core: { may: [], runs: 'anywhere', why: 'the pure core imports nothing outside src/core' },
  generate: { may: ['core'], runs: 'anywhere', why: 'the log generator builds on the core only' },
  protocol: { may: ['core'], runs: 'anywhere', why: "the protocol's shapes derive from the core only" },
  view: {
    may: ['core', 'protocol', 'platform'],
    runs: 'anywhere',
    why: 'the view answers from the core, in the protocol’s shapes',
  },
  platform: { may: [], runs: 'anywhere', why: 'platform helpers stand alone' },
  worker: { may: ['core', 'protocol', 'view', 'platform'], runs: 'anywhere', why: 'the worker runs the view over the core' },
  store: { may: ['protocol', 'core', 'live'], runs: 'browser', why: 'the store holds state and talks through its clients' },
  ui: {
    may: ['store', 'protocol', 'live', 'platform', 'core'],
    runs: 'browser',
    why: 'the UI reaches the workers through the store (its actions, or the hooks of ui/shared/use-worker-answer.ts)',
  },
  live: { may: [], runs: 'anywhere', why: 'the live client stands alone: it runs in a page and in Node' },
  server: {
    may: ['core', 'live', 'build'],
    runs: 'node',
    why: 'the server follows logs with the core and speaks the live protocol',
  },
  cli: { may: ['core', 'server', 'generate'], runs: 'node', why: 'the CLI answers with the core and starts the server' },
  build: {
    may: ['generate', 'core'],
    runs: 'node',
    why: "the build bundles the CLI and shapes the app (the offline bundle's template takes its data slot from the core)",
  },
  bench: {
    may: ['core', 'generate', 'live', 'server', 'test-support'],
    outside: ['e2e/support', 'vite.config.ts'],
    runs: 'node',
    why: 'the bench drives the CLI, the server and the built page',
  },
  soak: { may: ['core', 'generate', 'live', 'test-support'], runs: 'node', why: 'the soak drives the live server' },
  'test-support': { may: '*', runs: 'node', why: 'test helpers may use anything' },
}

/**
 * The rooms of a layer (docs/architecture.md: "The server, by room" and "The UI, by folder"): what each may import of
 * its layer's other rooms, and of the files at the layer's root (by name). Files at a layer's root may import any room.
 */
export const ROOMS = {
  server: {
    tail: [],
    catalog: ['tail', 'path-guard.ts'],
    'dsh-web': ['tail', 'catalog'],
    http: ['path-guard.ts'],
    stream: ['tail', 'catalog', 'dsh-web', 'content-search', 'path-guard.ts'],
    'content-index': ['catalog', 'path-guard.ts'],
    'content-search': ['content-index'],
  },
  ui: {
    app: '*',
    panes: ['shared'],
    search: ['shared'],
    sessions: ['shared'],
    live: ['sessions', 'shared'],
    home: ['shared'],
    compare: ['panes', 'shared'],
    export: ['shared'],
    secrets: ['shared'],
    share: ['shared'],
    shared: [],
  },
}

/** Where a file is: outside src/, one of its entry files, or a layer (and a room of it, or a file at its root). */
function placeOf(file) {
  const rel = relative(SRC, file)
  if (rel.startsWith('..')) return { outside: relative(ROOT, file).split(sep).join('/') }
  const parts = rel.split(sep)
  if (parts.length === 1) return { entry: parts[0] }
  const [layer, second] = parts
  if (ROOMS[layer] === undefined) return { layer }
  return parts.length > 2 ? { layer, room: second } : { layer, rootFile: second }
}

const allows = (list, name) => list === '*' || list.includes(name)

/** Why `from` may not import `to` (absolute paths), or null when the fences allow it. Tests of src/ are not fenced. */
export function fenceProblem(from, to) {
  const a = placeOf(from)
  const b = placeOf(to)
  if (a.layer === undefined) return null
  const fence = LAYERS[a.layer]
  if (fence === undefined) return `src/${a.layer}/ is a folder docs/architecture.md does not list`
  if (b.outside !== undefined) {
    const ok = fence.may === '*' || (fence.outside ?? []).some((p) => b.outside === p || b.outside.startsWith(`${p}/`))
    return ok ? null : `src/${a.layer} may not import ${b.outside} (outside src/): ${fence.why}`
  }
  if (b.entry !== undefined) return fence.may === '*' ? null : `src/${a.layer} may not import the page's entry (src/${b.entry})`
  if (b.layer !== a.layer) {
    if (allows(fence.may, b.layer)) return null
    return `src/${a.layer} may import ${fence.may.length === 0 ? 'nothing else' : fence.may.join(', ')}: ${fence.why}`
  }
  if (a.room === undefined || b.room === a.room) return null
  const may = ROOMS[a.layer][a.room]
  if (may === undefined) return `src/${a.layer}/${a.room}/ is a room docs/architecture.md does not list`
  const target = b.room ?? b.rootFile
  if (allows(may, target)) return null
  return `src/${a.layer}/${a.room}/ may import ${may.length === 0 ? `nothing else of src/${a.layer}` : may.join(', ')} (not ${target})`
}

/** The `lens/fences` rule: every relative import (static, re-export, `import()`) checked by `fenceProblem`. */
const fencesRule = {
  meta: { type: 'problem', schema: [], messages: { fenced: '{{problem}}' } },
  create(context) {
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return
      const from = context.physicalFilename
      const problem = fenceProblem(from, resolve(dirname(from), source.value))
      if (problem !== null) context.report({ node: source, messageId: 'fenced', data: { problem } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    }
  },
}

const NO_NODE = { group: ['node:*', 'fs', 'path', 'os', 'ws', 'child_process'], message: 'Runs in a page: no Node APIs.' }
const NO_UI = {
  group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*', '@tanstack/*'],
  message: 'Runs anywhere: no UI libraries.',
}

/** Globals of a thread's runtime (the page's or a worker's): the view computes answers, the worker runs it. */
const RUNTIME_GLOBALS = ['self', 'window', 'document', 'navigator', 'location', 'localStorage', 'postMessage', 'importScripts']
  .concat(['fetch', 'Worker', 'MessageChannel', 'requestAnimationFrame', 'setTimeout', 'setInterval'])
  .map((name) => ({ name, message: 'src/view is pure: the runtime belongs in src/worker (or src/platform).' }))

/** What a layer's runtime forbids: Node APIs outside Node, UI libraries where it runs anywhere (tests excepted). */
function runtimeFence(layer, { runs }) {
  const patterns = runs === 'node' ? [] : runs === 'browser' ? [NO_NODE] : [NO_NODE, NO_UI]
  return {
    files: [`src/${layer}/**/*.{ts,tsx}`],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      ...(patterns.length === 0 ? {} : { 'no-restricted-imports': ['error', { patterns }] }),
      ...(layer === 'view' ? { 'no-restricted-globals': ['error', ...RUNTIME_GLOBALS] } : {}),
    },
  }
}

/** Every way a string becomes markup or code in a page; none is needed to render a log, all are refused. */
const NO_HTML_SINKS = [
  { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render log content as text, never as HTML.' },
  {
    selector:
      "MemberExpression[property.name=/^(innerHTML|outerHTML|insertAdjacentHTML|createContextualFragment)$/], MemberExpression[object.name='document'][property.name=/^(write|writeln)$/]",
    message: 'No HTML sinks in browser code: render log content as text (React children, textContent).',
  },
  {
    selector: "CallExpression[callee.name='eval'], NewExpression[callee.name='Function']",
    message: 'No eval: the CSP refuses it.',
  },
]

/** The one road from the UI to the worker (docs/architecture.md): only the hooks' own file reads the store's client. */
export const ONE_ROAD_FILE = 'src/ui/shared/use-worker-answer.ts'
const ONE_ROAD = {
  selector: "MemberExpression[property.name='client']",
  message: `A component asks the worker through a store action or the hooks of ${ONE_ROAD_FILE}, never the store's client.`,
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-*',
      'node_modules',
      'coverage',
      '.bench',
      'test-results',
      'playwright-report',
      'public',
      'src/core/decode/vendor',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // The bin is CommonJS on purpose (it starts a CommonJS bundle without Node's ESM loader): require is its import.
  { files: ['bin/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The layers and their rooms (docs/architecture.md): each imports only what its row says. Tests may use anything.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    plugins: { lens: { rules: { fences: fencesRule } } },
    rules: { 'lens/fences': 'error' },
  },
  ...Object.entries(LAYERS).map(([layer, fence]) => runtimeFence(layer, fence)),
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Log content is untrusted: it reaches the DOM as text only (SECURITY.md, "The viewer").
      'no-restricted-syntax': ['error', ...NO_HTML_SINKS],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', ONE_ROAD_FILE],
    rules: { 'no-restricted-syntax': ['error', ...NO_HTML_SINKS, ONE_ROAD] },
  },
)
