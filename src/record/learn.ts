import { SHAPED_SCHEMAS, type DialectFile, type Shape } from '../dialect/schema.js'
import type { FixtureSet } from '../fixtures/loader.js'
import { mediaType, type Exchange } from './exchange.js'
import { learnErrorShape } from './learn-errors.js'
import { learnRequestShapes } from './learn-requests.js'
import { learnShape, type LearnedShape } from './learn-shape.js'
import { learnWorld } from './learn-world.js'
import { emptyNotes, type Notes } from './notes.js'
import { redactValue } from './redact.js'
import { successSightings } from './sightings.js'

export interface Learned {
  dialect: DialectFile
  fixtures: FixtureSet
  notes: Notes
}

/**
 * Everything the recording teaches: the dialect (shapes, requests, kept values), the world and
 * the personas. Works on the exchanges as seen (tokens are hashed here); what it keeps is redacted.
 */
export function learn (exchanges: readonly Exchange[], options: { salt: string; now?: Date }): Learned {
  const notes = emptyNotes()
  const learned = new Map<string, LearnedShape>()
  const shapes: Record<string, Shape> = {}
  for (const name of SHAPED_SCHEMAS) {
    if (name === 'Problem') continue
    const shape = learnShape(name, successSightings(exchanges, name), notes)
    if (shape === undefined) continue
    learned.set(name, shape)
    const types = new Set(shape.sightings.map(s => mediaType(s.exchange.response.headers)))
    const [contentType] = types
    shapes[name] = types.size === 1 && contentType !== undefined && contentType !== '' && contentType !== 'application/json' ? { ...shape.shape, contentType } : shape.shape
  }
  const problem = learnErrorShape(exchanges, notes)
  if (problem !== undefined) shapes.Problem = problem
  const requests = learnRequestShapes(exchanges, learned, notes)
  const { fixtures } = learnWorld(exchanges, learned, options.salt, notes, options.now)
  const entities: Record<string, Record<string, Record<string, unknown>>> = {}
  for (const [name, shape] of learned) {
    const kept = Object.fromEntries([...shape.kept].filter(([, values]) => Object.keys(values).length > 0))
    if (Object.keys(kept).length > 0) entities[name] = redactValue(kept) as Record<string, Record<string, unknown>>
  }
  for (const shape of Object.values(shapes)) {
    for (const [pointer, spec] of Object.entries(shape.fields)) {
      // By the field's pointer: a default of /attributes/pin is a PIN.
      if (typeof spec === 'object' && 'default' in spec) spec.default = redactValue(spec.default, pointer)
    }
  }
  const dialect: DialectFile = {
    description: 'Learned by baas-mock record; see REPORT.md for what was learned, guessed and left to edit',
    shapes,
    ...Object.keys(requests).length > 0 ? { requests } : {},
    ...Object.keys(entities).length > 0 ? { entities } : {}
  }
  const shown = new Set([...learned.values()].flatMap(s => s.shown))
  const unshaped = exchanges.filter((e, i) => e.response.status < 300 && e.response.json !== undefined && !shown.has(i))
  for (const operation of new Set(unshaped.map(e => e.operation))) notes.edit.push(`${operation}: its answers taught no shape; the mock answers it in its own shape`)
  return { dialect, fixtures, notes }
}
