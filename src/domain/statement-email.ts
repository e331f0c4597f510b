import { parseDate } from './banking-calendar.js'
import type { Account, Customer, Statement } from './model.js'

/** The e-mail a customer gets with a statement: what a real bank's notice says, as plain text. */
export interface StatementEmail {
  subject: string
  body: string
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const

export function composeStatementEmail (customer: Customer, statement: Statement, account: Account | undefined): StatementEmail {
  const period = describePeriod(statement.periodStart, statement.periodEnd)
  const accountName = account === undefined ? 'account' : `${account.type.toLowerCase()} account ending in ${account.last4}`
  return {
    subject: `Your ${period} statement is ready`,
    body: [
      `Hi ${customer.firstName},`,
      '',
      `Your statement for your ${accountName} is attached.`,
      '',
      `Statement period: ${formatDay(statement.periodStart)} – ${formatDay(statement.periodEnd)}`,
      `Opening balance: ${formatMoney(statement.openingBalance, statement.currency)}`,
      `Closing balance: ${formatMoney(statement.closingBalance, statement.currency)}`,
      `Statement ID: ${statement.id}`,
      '',
      'This message was sent by baas-mock to the e-mail address on file. No real bank was involved.'
    ].join('\n')
  }
}

/** "October 2026" for a calendar month, else "November 23, 2026 – November 30, 2026" (both days inclusive). */
export function describePeriod (periodStart: string, periodEnd: string): string {
  const start = parseDate(periodStart)
  const end = parseDate(periodEnd)
  if (start.day === 1 && start.add({ months: 1 }).subtract({ days: 1 }).equals(end)) return `${MONTHS[start.month - 1]} ${start.year}`
  return `${formatDay(periodStart)} – ${formatDay(periodEnd)}`
}

/** Minor units to a display amount: 482519 USD → "$4,825.19", -1250 → "-$12.50". */
export function formatMoney (minorUnits: number, currency: string): string {
  const sign = minorUnits < 0 ? '-' : ''
  const abs = Math.abs(minorUnits)
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const amount = `${whole}.${(abs % 100).toString().padStart(2, '0')}`
  return currency === 'USD' ? `${sign}$${amount}` : `${sign}${amount} ${currency}`
}

function formatDay (date: string): string {
  const d = parseDate(date)
  return `${MONTHS[d.month - 1]} ${d.day}, ${d.year}`
}
