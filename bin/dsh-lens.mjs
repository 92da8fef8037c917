#!/usr/bin/env node
// The `dsh-lens` command (package.json "bin"). It runs the built CLI (dist-cli/, made by `npm run build`);
// in a checkout that has not been built yet it says how to build instead of failing obscurely.
import { existsSync } from 'node:fs'

const built = new URL('../dist-cli/dsh-lens.mjs', import.meta.url)
if (existsSync(built)) {
  await import(built.href)
} else {
  process.stderr.write('dsh-lens: the CLI is not built yet: run `npm run build` (or use `npm run lens -- ...`)\n')
  process.exitCode = 2
}
