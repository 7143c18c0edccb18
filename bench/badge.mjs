// Badges per second and bytes per badge of shields.io's badge-maker, over the cases
// of bench/badge.rs. Run both with bench/badge.sh. Prints one JSON line per case.
import { makeBadge } from 'badge-maker'

const secs = Number(process.env.BENCH_SECONDS || 2)
// badge-maker draws two segments; a pith status goes into the message.
const cases = [
  ['short flat', { label: 'pith', message: '7BMK4ZKT', color: 'blue', style: 'flat' }],
  ['short flat-square', { label: 'pith', message: '7BMK4ZKT', color: 'blue', style: 'flat-square' }],
  ['full flat', { label: 'pith', message: '2024:7BMK4ZKTPUTUY3JKWBANNPOFR5', color: 'blue', style: 'flat' }],
  ['short+status flat', { label: 'pith', message: '7BMK4ZKT verified', color: 'blue', style: 'flat' }],
  ['full+status flat-square', { label: 'pith', message: '2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 anchored', color: 'blue', style: 'flat-square' }],
]
for (const [name, c] of cases) {
  const bytes = Buffer.byteLength(makeBadge(c))
  for (let i = 0; i < 1000; i++) makeBadge(c)
  const start = process.hrtime.bigint()
  const budget = BigInt(Math.round(secs * 1e9))
  let count = 0
  let sink = 0
  while (process.hrtime.bigint() - start < budget) {
    for (let i = 0; i < 100; i++) sink += makeBadge(c).length
    count += 100
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9
  console.log(JSON.stringify({ tool: 'badge-maker', case: name, badges_per_s: Math.round(count / elapsed), bytes, sink: sink > 0 }))
}
