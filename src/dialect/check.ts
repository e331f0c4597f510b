import type { TSchema } from 'typebox'
import { FixtureError, type FixtureProblem } from '../fixtures/loader.js'
import { compileValue } from '../fixtures/responses.js'
import { OPERATIONS_BY_ID, isBodiless } from '../core/operations.js'
import { SHAPED_SCHEMAS, type DialectFile, type FieldSpec, type Shape } from './schema.js'
import { enumOf, isArraySchema, mockSchema, pointerOf, pointerTokens, refName, schemaAt, type Reached } from './mock-schemas.js'

/** What a dialect file's meaning breaks (its schema already passed): problems refuse it, warnings are told. */
export interface DialectFindings { problems: FixtureProblem[]; warnings: FixtureProblem[] }

/**
 * Checks a dialect against the mock's own schemas: every mock pointer reaches a field, every
 * `shape:` names a shape, every template compiles, value maps name values the mock has. All
 * problems at once, each with the file and the JSON pointer in it. A mock enum value a `values`
 * map leaves out is a warning, not a problem: it passes through as the mock's, and a recorded
 * dialect often saw only some of them.
 */
export function checkDialect (dialect: DialectFile, file: string): DialectFindings {
  const problems: FixtureProblem[] = []
  const warnings: FixtureProblem[] = []
  const problem = (tokens: readonly string[], rule: string): void => { problems.push({ file, pointer: pointerOf(tokens), rule }) }
  const warn = (tokens: readonly string[], rule: string): void => { warnings.push({ file, pointer: pointerOf(tokens), rule }) }
  const shapes = dialect.shapes ?? {}
  const checked = new Set<string>()
  const used = new Set<string>()

  const checkShape = (name: string, context: Reached, contextName: string): void => {
    const shape = shapes[name]
    if (shape === undefined) return
    const key = `${name} ${contextName}`
    if (checked.has(key)) return
    checked.add(key)
    const at = ['shapes', name]
    checkTeamPointers(Object.keys(shape.fields), [...at, 'fields'], problem)
    for (const [team, spec] of Object.entries(shape.fields)) checkField(name, shape, team, spec, context, contextName, [...at, 'fields', team])
  }

  const checkField = (shapeName: string, _shape: Shape, _team: string, spec: FieldSpec, context: Reached, contextName: string, at: string[]): void => {
    const from = typeof spec === 'string' ? spec : spec.from
    const fromAt = typeof spec === 'string' ? at : [...at, 'from']
    const kinds = typeof spec === 'string' ? 1 : [spec.from, spec.const, spec.template].filter(v => v !== undefined).length
    if (kinds > 1) problem(at, 'give one of from, const or template')
    let reached: Reached
    if (from !== undefined) {
      reached = schemaAt(context, pointerTokens(from))
      if (reached === undefined) problem(fromAt, `maps to nothing in the mock's ${contextName} (it has no field ${from === '' ? '(whole value)' : from})`)
    }
    if (typeof spec === 'string') return
    if (spec.values !== undefined && from !== undefined && reached !== undefined) checkValues(spec.values, reached, from, contextName, [...at, 'values'])
    if (spec.shape !== undefined) {
      if (shapes[spec.shape] === undefined) problem([...at, 'shape'], `names no shape (known: ${Object.keys(shapes).join(', ')})`)
      else if (from === undefined) problem([...at, 'shape'], 'a nested shape renders a value: give from too')
      else if (reached !== undefined) {
        used.add(spec.shape)
        const inner = isArraySchema(reached) ? schemaAt(reached, ['0']) : reached
        checkShape(spec.shape, inner, `${contextName} ${from}`)
      }
    }
    if (spec.template !== undefined) {
      try {
        compileValue(spec.template, file, pointerOf([...at, 'template']), true)
      } catch (error) {
        if (!(error instanceof FixtureError)) throw error
        problems.push(...error.problems)
      }
    }
    void shapeName
  }

  const checkValues = (values: Record<string, unknown>, reached: Reached, from: string, contextName: string, at: string[]): void => {
    const allowed = enumOf(reached)
    if (allowed === undefined) return
    for (const key of Object.keys(values)) {
      if (!allowed.includes(key)) problem([...at, key], `${key} is not a value of the mock's ${contextName} ${from} (${allowed.join(', ')})`)
    }
    const unmapped = allowed.filter(value => typeof value === 'string' && !Object.hasOwn(values, value))
    if (unmapped.length > 0) warn(at, `leaves ${unmapped.join(', ')} of the mock's ${contextName} ${from} unmapped: shown as the mock's own`)
    const teamValues = Object.values(values).map(v => JSON.stringify(v))
    const repeated = teamValues.find((v, i) => teamValues.indexOf(v) !== i)
    if (repeated !== undefined) problem(at, `maps two mock values to ${repeated}: a request could not be read back`)
  }

  for (const name of Object.keys(shapes)) {
    if ((SHAPED_SCHEMAS as readonly string[]).includes(name)) checkShape(name, mockSchema(name), name)
  }
  for (const name of Object.keys(shapes)) {
    if (!(SHAPED_SCHEMAS as readonly string[]).includes(name) && !used.has(name)) {
      warn(['shapes', name], `is neither one of the mock's schemas (${SHAPED_SCHEMAS.join(', ')}) nor used by a field's shape: it has no effect`)
    }
  }

  for (const [operationId, request] of Object.entries(dialect.requests ?? {})) {
    const at = ['requests', operationId]
    const op = OPERATIONS_BY_ID.get(operationId)
    if (op === undefined) { problem(at, 'is not an operation id (see openapi.yaml)'); continue }
    if (op.body === undefined || isBodiless(op)) { problem(at, `${operationId} takes no body`); continue }
    const body = op.body as TSchema
    const name = refName(body) ?? operationId
    checkTeamPointers(Object.keys(request.fields), [...at, 'fields'], problem)
    for (const [team, spec] of Object.entries(request.fields)) {
      const fieldAt = [...at, 'fields', team]
      if (typeof spec === 'object' && 'const' in spec) continue
      const to = typeof spec === 'string' ? spec : spec.to
      const reached = schemaAt(body, pointerTokens(to))
      if (reached === undefined) problem(typeof spec === 'string' ? fieldAt : [...fieldAt, 'to'], `maps to nothing in the mock's ${name} (it has no field ${to})`)
      else if (typeof spec === 'object' && 'values' in spec && spec.values !== undefined) checkValues(spec.values, reached, to, name, [...fieldAt, 'values'])
    }
  }

  for (const [name, byId] of Object.entries(dialect.entities ?? {})) {
    const shape = shapes[name]
    if (shape === undefined) { problem(['entities', name], `names no shape (known: ${Object.keys(shapes).join(', ')})`); continue }
    for (const [id, values] of Object.entries(byId)) {
      for (const team of Object.keys(values)) {
        const spec = shape.fields[team]
        if (spec === undefined) problem(['entities', name, id, team], `is not a field of shape ${name}`)
        else if (typeof spec === 'string' || spec.from !== undefined || spec.const !== undefined || spec.template !== undefined) {
          problem(['entities', name, id, team], `shape ${name} gives ${team} from the mock (from, const or template): only a field with neither keeps values per entity`)
        }
      }
    }
  }
  return { problems, warnings }
}

/** Two fields where one is inside the other (`/a` and `/a/b`) cannot both be written. */
function checkTeamPointers (pointers: readonly string[], at: readonly string[], problem: (tokens: readonly string[], rule: string) => void): void {
  const sorted = [...pointers].sort()
  for (const pointer of sorted) {
    const inside = sorted.find(other => other !== pointer && (other === '' || pointer.startsWith(`${other}/`)))
    if (inside !== undefined) problem([...at, pointer], `lies inside ${inside === '' ? 'the whole document ("")' : inside}, which another field gives whole`)
  }
}
