#!/usr/bin/env node
// The `dsh-lens` command (package.json "bin"). It runs the built CLI (dist-cli/, made by `npm run build`);
// in a checkout that has not been built yet it says how to build instead of failing obscurely.
// CommonJS, like the bundle it starts: an ES-module entry would set up Node's ESM loader for nothing.
'use strict'
const { existsSync } = require('node:fs')
const { join } = require('node:path')

const built = join(__dirname, '../dist-cli/dsh-lens.cjs')
if (existsSync(built)) {
  require(built)
} else {
  process.stderr.write('dsh-lens: the CLI is not built yet: run `npm run build` (or use `npm run lens -- ...`)\n')
  process.exitCode = 2
}
