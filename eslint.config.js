// Lint rules, including the fences that keep the layout a picture of the architecture.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const noNode = { group: ['node:*', 'fs', 'path', 'os', 'ws', 'child_process'] }
const noUi = { group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*', '@tanstack/*'] }

const BROWSER_ONLY = { group: ['node:*', '**/server/**', '**/cli/**'], message: 'Browser code cannot reach Node-only layers.' }

/** Every top-level folder of src/: the layers a fence refers to. */
const LAYERS = ['core', 'generate', 'protocol', 'view', 'platform', 'worker', 'store', 'ui', 'live', 'server', 'cli']
const layers = (names) => names.map((name) => `**/${name}/**`)
/** Globals of a thread's runtime (the page's or a worker's): the view computes answers, the worker runs it. */
const RUNTIME_GLOBALS = ['self', 'window', 'document', 'navigator', 'location', 'localStorage', 'postMessage', 'importScripts']
  .concat(['fetch', 'Worker', 'MessageChannel', 'requestAnimationFrame', 'setTimeout', 'setInterval'])
  .map((name) => ({ name, message: 'src/view is pure: the runtime belongs in src/worker (or src/platform).' }))

/**
 * The fence of one folder of src/ (tests excepted): it may import only the layers in `may`; `pure` also refuses Node
 * and the UI libraries, `noRuntime` the runtime's globals.
 */
function fence(folder, may, why, { pure = false, noRuntime = false } = {}) {
  const others = LAYERS.filter((name) => name !== folder && !may.includes(name))
  const patterns = [
    ...(pure ? [{ ...noNode, message: `src/${folder} runs in a page, a worker and Node alike: no Node APIs.` }] : []),
    ...(pure ? [{ ...noUi, message: `src/${folder} runs anywhere: no UI libraries.` }] : []),
    { group: layers(others), message: `src/${folder} may import ${may.length === 0 ? 'nothing else' : may.join(', ')}: ${why}.` },
  ]
  return {
    files: [`src/${folder}/**/*.ts`],
    ignores: [`src/${folder}/**/*.test.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      ...(noRuntime ? { 'no-restricted-globals': ['error', ...RUNTIME_GLOBALS] } : {}),
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
  // The layers (docs/architecture.md): each folder imports only the layers below it.
  fence('core', [], 'the pure core imports nothing outside src/core', { pure: true }),
  fence('generate', ['core'], 'the log generator builds on the core only', { pure: true }),
  fence('protocol', ['core'], "the protocol's shapes derive from the core only", { pure: true }),
  fence('view', ['core', 'protocol', 'platform'], 'the view answers from the core, in the protocol’s shapes', {
    pure: true,
    noRuntime: true,
  }),
  fence('platform', [], 'platform helpers stand alone', { pure: true }),
  fence('worker', ['core', 'protocol', 'view', 'platform'], 'the worker runs the view over the core', { pure: true }),
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Log content is untrusted: it reaches the DOM as text only (SECURITY.md, "The viewer").
      'no-restricted-syntax': ['error', ...NO_HTML_SINKS],
    },
  },
  // The page talks to the worker through the store's LensClient (protocol/) only: no worker module rides into it.
  // Tests may run the worker's host in-thread and generate logs.
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.ts'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            BROWSER_ONLY,
            {
              group: layers(['worker', 'generate', 'bench', 'soak', 'build', 'test-support']),
              message: 'The UI reaches the worker through the store and protocol/ only.',
            },
          ],
        },
      ],
    },
  },
)
