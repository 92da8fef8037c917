// Lint rules, including the fences that keep the layout a picture of the architecture.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const noNode = { group: ['node:*', 'fs', 'path', 'os', 'ws', 'child_process'], message: 'src/core is pure: no Node APIs.' }
const noUi = {
  group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*', '@tanstack/*'],
  message: 'src/core is pure: no UI libraries.',
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
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noNode,
            noUi,
            {
              group: ['**/ui/**', '**/store/**', '**/worker/**', '**/server/**', '**/cli/**', '**/generate/**'],
              message: 'src/core imports nothing outside src/core.',
            },
          ],
        },
      ],
    },
  },
  // The log generator (tests, the bench, the demo) builds on the core and stays as pure: it runs in the CLI, the
  // server and the tests alike.
  {
    files: ['src/generate/**/*.ts'],
    ignores: ['src/generate/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { ...noNode, message: 'src/generate is pure: no Node APIs.' },
            { ...noUi, message: 'src/generate is pure: no UI libraries.' },
            {
              group: ['**/ui/**', '**/store/**', '**/worker/**', '**/server/**', '**/cli/**'],
              message: 'src/generate imports only the core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['node:*', '**/server/**', '**/cli/**'], message: 'Browser code cannot reach Node-only layers.' }],
        },
      ],
      // Log content is untrusted: it reaches the DOM as text only (SECURITY.md, "The viewer").
      'no-restricted-syntax': ['error', ...NO_HTML_SINKS],
    },
  },
)
