// Writes the shields.io reference badges that tests/badge.rs compares sizes against:
// badge-maker's flat style for the same texts as pith's badges. Run from bench/ after
// `npm ci`:  node badge-shields-fixtures.mjs
import { makeBadge } from 'badge-maker'
import { writeFileSync } from 'node:fs'

const out = new URL('../tests/golden/', import.meta.url)
const cases = {
  'badge-shields-short.svg': { label: 'pith', message: '7BMK4ZKT' },
  'badge-shields-full.svg': { label: 'pith', message: '2024:7BMK4ZKTPUTUY3JKWBANNPOFR5' },
  // shields.io has two segments; the third of ours goes into its message.
  'badge-shields-short-verified.svg': { label: 'pith', message: '7BMK4ZKT verified' },
  'badge-shields-full-anchored.svg': { label: 'pith', message: '2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 anchored' },
}
for (const [name, c] of Object.entries(cases)) {
  writeFileSync(new URL(name, out), makeBadge({ ...c, color: 'blue', style: 'flat' }))
}
