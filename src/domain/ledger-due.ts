import TinyQueue from 'tinyqueue'
import { nextTransition, pendingTransitions, returnExecution, settleExecution } from './ach-lifecycle.js'
import type { ScheduledTransfer, StatementCycle, TransferExecution } from './model.js'
import type { Occurrence } from './schedule.js'
import { closeStatementPeriod, nextMonthStart } from './statement-cycle.js'
import type { DueProcessor, TimelineEvent } from './timeline.js'
import { executeRun } from './transfer-execution.js'
import { runsUntil } from './transfer-runs.js'

/**
 * Everything that moves money or reports on it, in date order, as a bank would post it: transfer
 * runs, ACH settlements and returns, and month-end statements. One processor, because each
 * depends on the others: a statement closes at the balance after the month's runs and returns
 * and before the next month's; an R01 return gives money back that the next run may need; an R02
 * ends the transfer before its next run. On one day: the month that ended the day before closes
 * first, then settlements and returns (at the start of the banking day), then that day's runs.
 */

/** Something due on `date`; `order` ranks the same date and phase (the transfer's creation instant). */
type Due = { date: string; order: string } & (
  | { kind: 'statement'; cycle: StatementCycle }
  | { kind: 'settle' | 'return'; t: ScheduledTransfer; execution: TransferExecution }
  | { kind: 'run'; t: ScheduledTransfer; runs: Occurrence[]; index: number }
)

type Entry = Due & { phase: number; seq: number }

const PHASE = { statement: 0, settle: 1, return: 1, run: 2 } as const

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// Same date and phase: the older transfer first (as runs always were), then the order queued.
const byDueOrder = (a: Entry, b: Entry): number => compare(a.date, b.date) || a.phase - b.phase || compare(a.order, b.order) || a.seq - b.seq

const later = (a: string, b: string): string => (a > b ? a : b)

export const ledgerDue: DueProcessor = (ctx, until) => {
  const untilDate = until.day
  const queue = new TinyQueue<Entry>([], byDueOrder)
  let seq = 0
  const due = (entry: Due): void => {
    if (entry.date <= untilDate) queue.push({ ...entry, phase: PHASE[entry.kind], seq: seq++ })
  }

  for (const cycle of ctx.state.statementCycles.values()) due({ kind: 'statement', date: nextMonthStart(cycle.periodStart), order: '', cycle })
  for (const t of ctx.state.scheduledTransfers.values()) {
    for (const { kind, date, execution } of pendingTransitions(t)) due({ kind, date, order: t.createdAt, t, execution })
    // nextRunDate is the earliest execution date left: a later one means nothing is due, without the date math.
    if (t.status !== 'ACTIVE' || (t.nextRunDate !== null && t.nextRunDate > untilDate)) continue
    const runs = runsUntil(t, t.nextIndex, untilDate)
    if (runs[0] !== undefined) due({ kind: 'run', date: runs[0].executionDate, order: t.createdAt, t, runs, index: 0 })
  }

  const events: TimelineEvent[] = []
  const fired = (event: TimelineEvent | undefined): void => { if (event !== undefined) events.push(event) }
  for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) {
    const at = `${entry.date}T00:00:00.000Z`
    switch (entry.kind) {
      case 'statement':
        fired(closeStatementPeriod(ctx, entry.cycle, entry.date))
        due({ kind: 'statement', date: nextMonthStart(entry.cycle.periodStart), order: '', cycle: entry.cycle })
        break
      case 'settle': {
        if (entry.execution.status !== 'PENDING') break
        const { settled, event } = settleExecution(entry.t, entry.execution, at)
        fired(event)
        const next = nextTransition(entry.t, settled)
        if (next !== undefined) due({ kind: next.kind, date: next.date, order: entry.t.createdAt, t: entry.t, execution: settled })
        break
      }
      case 'return':
        // A simulated return may have come first.
        if (entry.execution.status !== 'SETTLED' || entry.t.magicReturnCode === undefined) break
        fired(returnExecution(ctx, entry.t, entry.execution, entry.t.magicReturnCode, at))
        break
      case 'run': {
        const { t, runs, index } = entry
        const run = runs[index] as Occurrence
        if (t.status !== 'ACTIVE') break
        // A run happens at the start of its day, but never before the transfer was last touched.
        for (const event of executeRun(ctx, t, run, run.executionDate, later(at, t.updatedAt), runs[index + 1])) events.push(event)
        const made = t.executions.at(-1) as TransferExecution
        const next = nextTransition(t, made)
        if (next !== undefined) due({ kind: next.kind, date: next.date, order: t.createdAt, t, execution: made })
        const following = runs[index + 1]
        if (following !== undefined) due({ kind: 'run', date: following.executionDate, order: t.createdAt, t, runs, index: index + 1 })
        break
      }
    }
  }
  return events
}

export const ledgerDueProcessors: DueProcessor[] = [ledgerDue]
