import { compileValue, type Render } from '../fixtures/responses.js'
import type { DialectFile, FieldSpec, RequestShape, Shape } from './schema.js'
import { escapeToken as escape, pointerOf, pointerTokens } from './mock-schemas.js'
import { unknownFieldWords } from '../core/validation-words.js'

/**
 * A dialect compiled once into functions: each shape renders the mock's value as the team's
 * document and reads the team's document back into the mock's input. Pointers are split here,
 * never per request.
 */

/** Where a read went wrong, by the team's pointer. */
export interface ReadProblem { pointer: string; message: string }

export interface CompiledShape {
  /** The team's document of a mock value: the envelope around it when `whole` (a whole answer). */
  render (value: unknown, whole: boolean): unknown
  /** An update event's previousAttributes: only the team fields whose mock pointers it holds. */
  renderPrevious (previous: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined
  /** The mock's input of a team document; problems name the team's pointers. */
  read (team: unknown, at: string, problems: ReadProblem[]): unknown
  /** The team's pointer of a mock pointer (the longest mapped prefix); undefined when nothing maps there. */
  teamPointer (mock: string): string | undefined
  readonly contentType: string | undefined
}

type Get = (value: unknown) => unknown

/** One leaf of the team's document. */
interface Leaf { render: (value: unknown, entity: Readonly<Record<string, unknown>> | undefined) => unknown; read: Reader | undefined; fromMock?: true }
type Reader = (team: unknown, mock: Record<string, unknown>, at: string, problems: ReadProblem[]) => void

/** The team's document as a tree of containers; leaves by index. */
type Node = { leaf: number } | { object: Array<[string, Node]> } | { array: Node[] }

export function compileDialect (dialect: DialectFile): Map<string, CompiledShape> {
  const compiled = new Map<string, CompiledShape>()
  const shapes = dialect.shapes ?? {}
  const shapeOf = (name: string): CompiledShape => {
    let found = compiled.get(name)
    if (found === undefined) {
      const shape = shapes[name]
      if (shape === undefined) throw new Error(`no shape ${name}`)
      // Registered before compiling: a nested shape may name its parent.
      const lazy: { current?: CompiledShape } = {}
      found = {
        render: (value, whole) => (lazy.current as CompiledShape).render(value, whole),
        renderPrevious: previous => (lazy.current as CompiledShape).renderPrevious(previous),
        read: (team, at, problems) => (lazy.current as CompiledShape).read(team, at, problems),
        teamPointer: mock => (lazy.current as CompiledShape).teamPointer(mock),
        contentType: shape.contentType
      }
      compiled.set(name, found)
      lazy.current = compileShape(name, shape, dialect.entities?.[name] ?? {}, shapeOf)
    }
    return found
  }
  for (const name of Object.keys(shapes)) shapeOf(name)
  return compiled
}

/** A request shape (requests.<operationId>): team pointer → where it goes in the operation's input. */
export function compileRequest (request: RequestShape): CompiledShape {
  const leaves: Leaf[] = []
  const mapped: Array<[string[], string]> = []
  const tree = treeOf(Object.entries(request.fields).map(([team, spec]) => {
    if (typeof spec === 'object' && 'const' in spec) {
      const expected = JSON.stringify(spec.const)
      leaves.push({ render: () => spec.const, read: (team, _mock, at, problems) => { if (JSON.stringify(team) !== expected) problems.push({ pointer: at, message: `must be ${expected}` }) } })
    } else {
      const to = typeof spec === 'string' ? spec : spec.to
      const values = typeof spec === 'string' ? undefined : spec.values
      mapped.push([pointerTokens(to), team])
      leaves.push({ render: () => undefined, read: placer(pointerTokens(to), values === undefined ? undefined : inverse(values), undefined) })
    }
    return team
  }))
  return { render: () => undefined, renderPrevious: () => undefined, read: readerOf(tree, leaves), teamPointer: translator(mapped), contentType: undefined }
}

function compileShape (name: string, shape: Shape, entities: Readonly<Record<string, Readonly<Record<string, unknown>>>>, shapeOf: (name: string) => CompiledShape): CompiledShape {
  const leaves: Leaf[] = []
  const mapped: Array<[string[], string]> = []
  const tree = treeOf(Object.entries(shape.fields).map(([team, spec]) => {
    leaves.push(leafOf(name, team, spec, shapeOf, mapped))
    return team
  }))
  const build = builderOf(tree, leaves)
  // Constants, templates and kept values say nothing of what changed.
  const buildPrevious = builderOf(tree, leaves.map(leaf => leaf.fromMock === true ? leaf : { render: () => undefined, read: undefined }))
  const envelope = shape.envelope === undefined || shape.envelope === '' ? undefined : pointerTokens(shape.envelope)
  const hasKept = Object.keys(entities).length > 0
  const read = readerOf(tree, leaves)
  return {
    render (value, whole) {
      const entity = hasKept && value !== null && typeof value === 'object' ? entities[String((value as { id?: unknown }).id)] : undefined
      const rendered = build(value, entity) ?? ('array' in tree ? [] : {})
      return whole && envelope !== undefined ? wrap(envelope, rendered) : rendered
    },
    renderPrevious: previous => buildPrevious(previous, undefined) as Record<string, unknown> | undefined,
    read (team, at, problems) {
      if (envelope === undefined) return read(team, at, problems)
      let inner = team
      for (const token of envelope) {
        if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
          problems.push({ pointer: at, message: 'must be an object' })
          return {}
        }
        const keys = Object.keys(inner)
        const other = keys.find(key => key !== token)
        if (other !== undefined) problems.push({ pointer: `${at}/${escape(other)}`, message: unknownFieldWords(other, [token]) })
        inner = (inner as Record<string, unknown>)[token]
        at = `${at}/${escape(token)}`
        if (inner === undefined) {
          problems.push({ pointer: at, message: 'is required' })
          return {}
        }
      }
      return read(inner, at, problems)
    },
    teamPointer: (() => {
      const translate = translator(mapped)
      const prefix = envelope === undefined ? '' : pointerOf(envelope)
      return (mock: string) => {
        const team = translate(mock)
        return team === undefined ? undefined : prefix + team
      }
    })(),
    contentType: shape.contentType
  }
}

function leafOf (shapeName: string, team: string, spec: FieldSpec, shapeOf: (name: string) => CompiledShape, mapped: Array<[string[], string]>): Leaf {
  if (typeof spec === 'string') {
    const tokens = pointerTokens(spec)
    mapped.push([tokens, team])
    return { render: getter(tokens), read: placer(tokens, undefined, undefined), fromMock: true }
  }
  if (spec.const !== undefined) {
    const expected = JSON.stringify(spec.const)
    return {
      render: () => spec.const,
      read: (given, _mock, at, problems) => { if (JSON.stringify(given) !== expected) problems.push({ pointer: at, message: `must be ${expected}` }) }
    }
  }
  if (spec.template !== undefined) {
    // Checked when the file was loaded; a template that fails at a request renders as nothing.
    const render: Render<{ value: unknown }> = compileValue(spec.template, shapeName, team, false)
    return { render: value => { try { return render({ value }) } catch { return undefined } }, read: undefined }
  }
  const fallback = spec.default
  if (spec.from === undefined) {
    // Kept per entity: what the team's backend shows that the mock has no rule for.
    return { render: (_value, entity) => entity !== undefined && Object.hasOwn(entity, team) ? entity[team] : fallback, read: undefined }
  }
  const tokens = pointerTokens(spec.from)
  mapped.push([tokens, team])
  const get = getter(tokens)
  const values = spec.values
  const nested = spec.shape === undefined ? undefined : shapeOf(spec.shape)
  const map = values === undefined ? undefined : (v: unknown): unknown => (v !== null && typeof v !== 'object' && Object.hasOwn(values, String(v)) ? values[String(v)] : v)
  const one = (v: unknown): unknown => {
    const mapped = nested === undefined ? v : v === null || typeof v !== 'object' ? v : nested.render(v, false)
    return map === undefined ? mapped : map(mapped)
  }
  return {
    render: value => {
      const v = get(value)
      if (v === undefined) return fallback
      return Array.isArray(v) ? v.map(one) : one(v)
    },
    read: placer(tokens, values === undefined ? undefined : inverse(values), nested),
    fromMock: true
  }
}

function getter (tokens: readonly string[]): Get {
  if (tokens.length === 0) return value => value
  if (tokens.length === 1) {
    const [a] = tokens as [string]
    return value => (value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[a])
  }
  return value => {
    let v = value
    for (const token of tokens) {
      if (v === null || typeof v !== 'object') return undefined
      v = (v as Record<string, unknown>)[token]
    }
    return v
  }
}

/** Team value → mock value, the value map read backwards. */
function inverse (values: Readonly<Record<string, unknown>>): Map<string, string> {
  return new Map(Object.entries(values).map(([mock, team]) => [JSON.stringify(team), mock]))
}

function placer (tokens: readonly string[], back: Map<string, string> | undefined, nested: CompiledShape | undefined): Reader {
  const one = (v: unknown, at: string, problems: ReadProblem[]): unknown => {
    const value = nested === undefined ? v : nested.read(v, at, problems)
    if (back === undefined) return value
    return back.get(JSON.stringify(value)) ?? value
  }
  return (team, mock, at, problems) => {
    const value = Array.isArray(team) && nested !== undefined ? team.map((item, i) => one(item, `${at}/${i}`, problems)) : Array.isArray(team) && back !== undefined ? team.map(item => one(item, at, problems)) : one(team, at, problems)
    if (tokens.length === 0) {
      if (value !== null && typeof value === 'object') Object.assign(mock, value)
      return
    }
    setAt(mock, tokens, value)
  }
}

function setAt (target: Record<string, unknown>, tokens: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = target
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i] as string
    let next = node[token]
    if (next === null || typeof next !== 'object') {
      next = /^\d+$/.test(tokens[i + 1] as string) ? [] : {}
      node[token] = next
    }
    node = next as Record<string, unknown>
  }
  node[tokens[tokens.length - 1] as string] = value
}

function wrap (tokens: readonly string[], value: unknown): unknown {
  const out: Record<string, unknown> = {}
  setAt(out, tokens, value)
  return out
}

/** The team's pointers as a tree; a container first reached by a number is an array. */
function treeOf (pointers: readonly string[]): Node {
  interface Draft { leaf?: number; keys?: Array<[string, Draft]>; items?: Draft[] }
  const root: Draft = {}
  pointers.forEach((pointer, index) => {
    let node = root
    for (const token of pointerTokens(pointer)) {
      if (node.leaf !== undefined) return
      if (/^\d+$/.test(token) && node.keys === undefined) {
        node.items ??= []
        node = node.items[Number(token)] ??= {}
      } else {
        node.keys ??= []
        let entry = node.keys.find(([key]) => key === token)
        if (entry === undefined) {
          entry = [token, {}]
          node.keys.push(entry)
        }
        node = entry[1]
      }
    }
    node.leaf = index
  })
  const done = (draft: Draft): Node => {
    if (draft.leaf !== undefined) return { leaf: draft.leaf }
    if (draft.items !== undefined) return { array: [...draft.items].map(item => done(item ?? {})) }
    return { object: (draft.keys ?? []).map(([key, child]) => [key, done(child)]) }
  }
  return done(root)
}

type Build = (value: unknown, entity: Readonly<Record<string, unknown>> | undefined) => unknown

/** Builds the team's document; a container all of whose fields are absent is left out. */
function builderOf (node: Node, leaves: readonly Leaf[]): Build {
  if ('leaf' in node) return (leaves[node.leaf] as Leaf).render
  if ('array' in node) {
    const items = node.array.map(child => builderOf(child, leaves))
    return (value, entity) => {
      const out: unknown[] = []
      for (const item of items) {
        const v = item(value, entity)
        if (v !== undefined) out.push(v)
      }
      return out.length === 0 ? undefined : out
    }
  }
  const fields = node.object.map(([key, child]) => [key, builderOf(child, leaves)] as const)
  return (value, entity) => {
    const out: Record<string, unknown> = {}
    let any = false
    for (const [key, build] of fields) {
      const v = build(value, entity)
      if (v !== undefined) {
        out[key] = v
        any = true
      }
    }
    return any ? out : undefined
  }
}

/** Reads a team document along the tree: a field the tree does not hold is refused by its pointer. */
function readerOf (node: Node, leaves: readonly Leaf[]): CompiledShape['read'] {
  const walk = (n: Node, team: unknown, mock: Record<string, unknown>, at: string, problems: ReadProblem[]): void => {
    if ('leaf' in n) {
      const read = (leaves[n.leaf] as Leaf).read
      read?.(team, mock, at, problems)
      return
    }
    if ('array' in n) {
      if (!Array.isArray(team)) { problems.push({ pointer: at, message: 'must be an array' }); return }
      team.forEach((item, i) => {
        const child = n.array[i]
        if (child === undefined) problems.push({ pointer: `${at}/${i}`, message: 'is not a known field' })
        else walk(child, item, mock, `${at}/${i}`, problems)
      })
      return
    }
    if (team === null || typeof team !== 'object' || Array.isArray(team)) { problems.push({ pointer: at, message: 'must be an object' }); return }
    for (const [key, value] of Object.entries(team)) {
      const child = n.object.find(([k]) => k === key)?.[1]
      if (child === undefined) problems.push({ pointer: `${at}/${escape(key)}`, message: unknownFieldWords(key, n.object.map(([k]) => k)) })
      else walk(child, value, mock, `${at}/${escape(key)}`, problems)
    }
  }
  return (team, at, problems) => {
    const mock: Record<string, unknown> = {}
    walk(node, team, mock, at, problems)
    return mock
  }
}

/** The team's pointer of a mock pointer: the longest mapped prefix, and the rest as it is. */
function translator (mapped: ReadonlyArray<readonly [string[], string]>): (mock: string) => string | undefined {
  const sorted = [...mapped].sort((a, b) => b[0].length - a[0].length)
  return mock => {
    const tokens = pointerTokens(mock)
    for (const [prefix, team] of sorted) {
      if (prefix.length <= tokens.length && prefix.every((token, i) => tokens[i] === token)) return team + pointerOf(tokens.slice(prefix.length))
    }
    return undefined
  }
}

