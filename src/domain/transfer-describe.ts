import type { ScheduledTransfer } from './model.js'

// One formatter: toLocaleString builds a new one per call (about 0.1 ms), most of a run's cost.
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export function usd (minor: number): string {
  return USD.format(minor / 100)
}

/** "$500.00 from acct_a to acct_b", "$1,850.00 from acct_a to Bayview (…8841)": what a run moves, for timeline details. */
export function describeMove (t: ScheduledTransfer, amount = t.amount): string {
  if (t.type === 'INTERNAL') return `${usd(amount)} from ${t.fromAccountId} to ${t.toAccountId ?? '?'}`
  const who = `${t.counterparty?.name ?? 'counterparty'} (…${t.counterparty?.accountNumberLast4 ?? '????'})`
  return t.direction === 'DEBIT' ? `${usd(amount)} from ${who} into ${t.fromAccountId}` : `${usd(amount)} from ${t.fromAccountId} to ${who}`
}
