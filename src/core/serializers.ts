import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

/**
 * Fastify compiles a serializer for every status of every route when it starts, although most
 * are never used (problem bodies are sent pre-serialized). Compiling on first use instead cuts
 * the cold start by half a second; the first request of each route pays a few milliseconds.
 *
 * fast-json-stringify also checks every shared schema it is given against the JSON Schema
 * meta-schema, each time it compiles. Given only the schemas a response refers to, a route's first
 * answer costs a few milliseconds instead of twenty.
 *
 * `serializedAs` replaces a shared schema, by `$id`, for writing answers only: the document keeps
 * the precise one (a oneOf), the serializer gets a flat one it needs no branch test for.
 */
type SerializerFactory = ReturnType<typeof SerializerSelector>
type Schemas = Record<string, unknown>
type RouteSerializer = Parameters<ReturnType<SerializerFactory>>[0]

export function lazySerializerFactory (serializedAs: Schemas = {}): SerializerFactory {
  const eager = SerializerSelector()
  return ((externalSchemas: Schemas | undefined, options: unknown) => {
    const shared = { ...externalSchemas, ...serializedAs }
    return (route: RouteSerializer) => {
      let serialize: ((data: unknown) => string) | undefined
      return (data: unknown) => {
        serialize ??= eager(referencedSchemas(route.schema, shared) as never, options as never)(route) as (data: unknown) => string
        return serialize(data)
      }
    }
  }) as unknown as SerializerFactory
}

/** The shared schemas `schema` refers to by `$ref`, directly or through one another. */
export function referencedSchemas (schema: unknown, shared: Schemas): Schemas {
  const found: Schemas = {}
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0] ?? ''
        if (id !== '' && !Object.hasOwn(found, id) && Object.hasOwn(shared, id)) {
          found[id] = shared[id]
          visit(shared[id])
        }
      } else {
        visit(value)
      }
    }
  }
  visit(schema)
  return found
}
