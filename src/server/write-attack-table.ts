/**
 * `npx tsx src/server/write-attack-table.ts`: rewrites the attack table in SECURITY.md (between its markers) from
 * src/server/attack-table.ts, then `npx prettier --write SECURITY.md`. attack-table.test.ts fails until it is run.
 */

import { readFileSync, writeFileSync } from 'node:fs'
import { TABLE_END, TABLE_START, renderAttackTable } from './attack-table.ts'

const file = new URL('../../SECURITY.md', import.meta.url)
const doc = readFileSync(file, 'utf8')
const start = doc.indexOf(TABLE_START)
const end = doc.indexOf(TABLE_END)
if (start < 0 || end < start) throw new Error(`SECURITY.md needs the markers ${TABLE_START} ... ${TABLE_END}`)
writeFileSync(file, `${doc.slice(0, start + TABLE_START.length)}\n\n${renderAttackTable()}\n\n${doc.slice(end)}`)
process.stdout.write('SECURITY.md: attack table rewritten; now run npx prettier --write SECURITY.md\n')
