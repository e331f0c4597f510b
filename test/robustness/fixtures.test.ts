import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import t from 'tap'
import { Temporal } from 'temporal-polyfill'
import { parse, stringify } from 'yaml'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { runDue } from '../../src/domain/due.js'
import { FixtureError, loadScenarios } from '../../src/fixtures/loader.js'
import { resolveRelative } from '../../src/fixtures/relative-dates.js'
import { loadResponseOverrides } from '../../src/fixtures/responses.js'
import { snapshot } from '../../src/world/snapshot.js'
import { World } from '../../src/world/world.js'
import { runCli } from '../helpers/spawn.js'
import { SEED } from './arbitraries.js'

/**
 * Broken fixture folders: whatever is wrong with them, the mock either refuses to start with a
 * FixtureError naming the file, or every world it builds from them works, for a year of clock.
 */

const root = mkdtempSync(join(tmpdir(), 'baas-mock-fuzz-fixtures-'))
t.teardown(() => rmSync(root, { recursive: true, force: true }))

function files (dir: string): string[] {
  return readdirSync(dir).flatMap(name => statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)])
}
const FILES = files(BUNDLED_FIXTURES).map(f => relative(BUNDLED_FIXTURES, f)).sort()

const HOSTILE_VALUES: unknown[] = [
  'now-PT', 'today+P', 'today-P999999Y', 'now+P1Y2M3DT4H5M6.5S', '2026-02-30', '2026-13-01', '2026-11-23T25:00:00Z', '0000-01-01', '9999-12-31',
  '', ' ', 'today', 'now', null, 0, -1, 1.5, 2 ** 53, -(2 ** 53), true, [], {}, ['x'], { a: 1 }, '__proto__', 'x'.repeat(5000), '😀', '\u0000'
]

const GARBAGE = ['', '[]', '{}', 'null', '- 1\n- 2', ': :', '\t- x', '\u0000\u0001\u0002', 'a: &a [*a]', '---\n---\n', '- !!binary AAAA', '"unterminated', 'x'.repeat(100_000)]

type Mutation =
  | { kind: 'garbage'; file: string; text: string }
  | { kind: 'folder'; file: string }
  | { kind: 'value'; file: string; entity: number; path: number[]; value: unknown }
  | { kind: 'drop'; file: string; entity: number; path: number[] }

const file = fc.constantFrom(...FILES)
const path = fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 3 })
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), file, text: fc.oneof(fc.constantFrom(...GARBAGE), fc.string({ maxLength: 40 })) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('folder' as const), file }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('value' as const), file, entity: fc.nat({ max: 20 }), path, value: fc.oneof(fc.constantFrom(...HOSTILE_VALUES), fc.jsonValue({ maxDepth: 2 })) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), file, entity: fc.nat({ max: 20 }), path }) }
)

/** Follows `path` (indexes into keys or items) from an entity and sets or drops what it reaches. */
function change (doc: unknown, m: Extract<Mutation, { kind: 'value' | 'drop' }>): unknown {
  const holder = Array.isArray(doc) ? doc : doc !== null && typeof doc === 'object' ? Object.values(doc) : []
  let node: unknown = holder[m.entity % Math.max(1, holder.length)]
  for (let i = 0; i < m.path.length; i++) {
    if (node === null || typeof node !== 'object') return doc
    const keys = Object.keys(node)
    if (keys.length === 0) return doc
    const key = keys[(m.path[i] ?? 0) % keys.length] as string
    if (i === m.path.length - 1) {
      if (m.kind === 'drop') delete (node as Record<string, unknown>)[key]
      else (node as Record<string, unknown>)[key] = structuredClone(m.value)
    } else node = (node as Record<string, unknown>)[key]
  }
  return doc
}

let run = 0
function cleanCopy (): string {
  const dir = join(root, String(run++))
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  return dir
}

function brokenCopy (m: Mutation): string {
  const dir = cleanCopy()
  const target = join(dir, m.file)
  if (m.kind === 'garbage') writeFileSync(target, m.text)
  else if (m.kind === 'folder') { rmSync(target); mkdirSync(target) } else writeFileSync(target, stringify(change(parse(readFileSync(target, 'utf8')), m)))
  return dir
}

/** What the server does with a fixtures folder: load it, then build and run every scenario's world. */
function startFrom (dir: string): void {
  const scenarios = loadScenarios(dir)
  loadResponseOverrides(dir, scenarios.keys())
  for (const scenario of scenarios.values()) {
    for (const now of [undefined, new Date('2026-11-23T15:00:00Z')]) {
      const world = new World(scenario.fixtures, { scenario: scenario.name, sessionId: 'fuzz', outboxCap: 10, now, seed: 1 })
      runDue(world.ctx)
      world.clock.advanceTo(new Date(world.clock.now().getTime() + 366 * 86_400_000))
      runDue(world.ctx)
      JSON.stringify(snapshot(world))
    }
  }
}

t.test('a broken fixture folder is a FixtureError at startup, or its worlds work', async t => {
  const outcomes = { refused: 0, worked: 0 }
  fc.assert(fc.property(mutation, m => {
    const dir = brokenCopy(m)
    try {
      startFrom(dir)
      outcomes.worked++
    } catch (error) {
      if (!(error instanceof FixtureError)) throw new Error(`${JSON.stringify(m).slice(0, 300)}: ${(error as Error).stack ?? String(error)}`, { cause: error })
      if (!/^(Invalid fixture \S+ at \/|Invalid fixtures, \d+ problems:\n {2}\S+ at \/)/.test(error.message)) throw new Error(`unclear message: ${error.message}`, { cause: error })
      outcomes.refused++
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  // A fixed number of seeded runs (no time limit), so the counts below do not depend on the machine's load.
  }), { seed: SEED, numRuns: 100 })
  t.ok(outcomes.refused > 20 && outcomes.worked > 5, `refused ${outcomes.refused}, worked ${outcomes.worked}`)
})

t.test('fixture paths cannot leave the fixtures folder', async t => {
  const outside = mkdtempSync(join(root, 'outside-'))
  writeFileSync(join(outside, 'accounts.yaml'), readFileSync(join(BUNDLED_FIXTURES, 'accounts.yaml')))
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['a file linked from outside', dir => { rmSync(join(dir, 'accounts.yaml')); symlinkSync(join(outside, 'accounts.yaml'), join(dir, 'accounts.yaml')) }, /accounts\.yaml at \/: leads outside the fixtures folder/],
    ['a scenario linked from outside', dir => symlinkSync(outside, join(dir, 'scenarios', 'elsewhere')), /scenarios\/elsewhere at \/: leads outside the fixtures folder/],
    ['a response file linked from outside', dir => symlinkSync(join(outside, 'accounts.yaml'), join(dir, 'responses', 'unlockCard.yaml')), /responses\/unlockCard\.yaml at \/: leads outside/],
    ['a broken link as a scenario', dir => symlinkSync(join(outside, 'nope'), join(dir, 'scenarios', 'gone')), /scenarios\/gone at \/: cannot be read/],
    ['scenarios as a file', dir => { rmSync(join(dir, 'scenarios'), { recursive: true }); writeFileSync(join(dir, 'scenarios'), '') }, /scenarios at \/: must be a folder/]
  ]
  for (const [name, breakIt, message] of cases) {
    const dir = cleanCopy()
    breakIt(dir)
    t.throws(() => startFrom(dir), message, name)
  }
  const dir = cleanCopy()
  symlinkSync(join(dir, 'scenarios', 'new-customer'), join(dir, 'scenarios', 'also-new'))
  t.doesNotThrow(() => startFrom(dir), 'a link that stays inside the folder is fine (Kubernetes ConfigMaps are links)')
})

t.test('the CLI reports a broken fixture in one line, never a stack trace', async t => {
  const broken: [string, (dir: string) => void][] = [
    ['a relative date without a duration', dir => writeFileSync(join(dir, 'customers.yaml'), readFileSync(join(dir, 'customers.yaml'), 'utf8').replace('createdAt: now-PT2H', 'createdAt: now-PT'))],
    ['a folder named like a fixture file', dir => { rmSync(join(dir, 'statements.yaml')); mkdirSync(join(dir, 'statements.yaml')) }],
    ['a scenario linked from outside', dir => symlinkSync(tmpdir(), join(dir, 'scenarios', 'elsewhere'))]
  ]
  for (const [name, breakIt] of broken) {
    const dir = cleanCopy()
    breakIt(dir)
    for (const command of [['check-fixtures'], ['--port', '0']]) {
      const { code, stderr } = await runCli([...command, '--fixtures', dir])
      t.equal(code, 1, `${name}: ${command[0]} exits 1`)
      t.match(stderr, /^baas-mock: Invalid fixture \S+ at \/\S*: .+\n$/, `${name}: one line naming file, pointer and rule`)
      t.notMatch(stderr, /\n\s+at /, `${name}: no stack trace`)
    }
  }
})

/** The plain Temporal reading of a relative date: what the fast paths of resolveRelative must agree with. */
function reference (value: string, start: Date): string {
  const [, anchor, sign, duration] = /^(today|now)(?:([+-])(P[0-9YMWDTHS.]+))?$/.exec(value) ?? []
  const base = Temporal.Instant.fromEpochMilliseconds(start.getTime()).toZonedDateTimeISO('UTC')
  const moved = duration === undefined ? base : sign === '-' ? base.subtract(Temporal.Duration.from(duration)) : base.add(Temporal.Duration.from(duration))
  return anchor === 'today' ? moved.toPlainDate().toString() : new Date(moved.epochMilliseconds).toISOString()
}

t.test('relative dates resolve as Temporal does, cached or not', async t => {
  const part = (unit: string, max: number) => fc.option(fc.integer({ min: 0, max }).map(n => `${n}${unit}`), { nil: '' })
  const expression = fc.record({
    anchor: fc.constantFrom('today', 'now'),
    sign: fc.constantFrom('+', '-'),
    date: fc.tuple(part('Y', 30), part('M', 40), part('W', 60), part('D', 400)).map(p => p.join('')),
    time: fc.tuple(part('H', 50), part('M', 200), part('S', 5000)).map(p => p.join(''))
  }).map(({ anchor, sign, date, time }) => date === '' && time === '' ? anchor : `${anchor}${sign}P${date}${time === '' ? '' : `T${time}`}`)
  const start = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T23:59:59Z'), noInvalidDate: true })
  fc.assert(fc.property(expression, start, fc.boolean(), (value, at, twice) => {
    if (twice) resolveRelative(value, at) // a cached answer must be the same answer
    const fast = resolveRelative(value, at)
    const slow = reference(value, at)
    if (fast !== slow) throw new Error(`${value} at ${at.toISOString()}: ${fast}, Temporal says ${slow}`)
  }), { seed: SEED, numRuns: 1000 })
  t.equal(resolveRelative('today-P1M', new Date('2026-03-31T10:00:00Z')), '2026-02-28', 'calendar months clamp')
  t.equal(resolveRelative('now-PT2H', new Date('2026-03-31T01:00:00Z')), '2026-03-30T23:00:00.000Z')
  t.equal(resolveRelative('Today', new Date()), 'Today', 'anything else is kept as written')
})
