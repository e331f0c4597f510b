import FindMyWay, { type HTTPMethod } from 'find-my-way'
import { lazySerializerFactory } from '../../core/serializers.js'
import { SERIALIZED_AS } from '../../core/schemas/index.js'
import { createValidatorCompiler } from '../../core/validation.js'
import type { RouteDefinition } from '../../core/route-definition.js'
import { SERVER_LIMITS } from '../../config/limits.js'

type Validate = ((data: unknown) => boolean) & { errors?: unknown }
type Serialize = (data: unknown) => string

/** A route ready to answer Fetch requests: compiled on first use, as the Fastify server does. */
export interface FetchRoute {
  definition: RouteDefinition
  validate (part: 'params' | 'body' | 'querystring'): Validate | undefined
  serialize (status: number): Serialize
}

export interface FetchRouter {
  /** The route of a request; throws a URIError for a path whose %-escapes do not decode. */
  find (method: string, path: string): { route: FetchRoute; params: Record<string, string> } | undefined
  /** The methods that answer a path (for 405 and Allow). */
  allowed (path: string): string[]
}

/** Routes with find-my-way (Fastify's own router, same options), validated by Ajv and serialised by fast-json-stringify from the same schemas. */
export function createFetchRouter (definitions: readonly RouteDefinition[], sharedSchemas: readonly object[]): FetchRouter {
  // A path whose %-escapes do not decode is found as a route with no store (onBadUrl), and refused
  // as Fastify's router refuses it (400 malformed_url), rather than taken for a path no route has.
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: SERVER_LIMITS.maxParamLength, onBadUrl: () => {} })
  const validation = createValidatorCompiler()
  const shared: Record<string, unknown> = {}
  for (const schema of sharedSchemas) {
    validation.addSchema(schema)
    shared[(schema as { $id: string }).$id] = schema
  }
  // The server's own serializer factory, so both write the same bytes (flat schemas where the document has a oneOf).
  const serializerOf = lazySerializerFactory(SERIALIZED_AS)(shared as never, {} as never)
  const methods = new Set<string>()
  for (const definition of definitions) {
    const route = fetchRoute(definition)
    const register = (method: string): void => {
      methods.add(method)
      router.on(method as HTTPMethod, definition.url, () => {}, route)
    }
    register(definition.method)
    if (definition.exposeHead && definition.method === 'GET') register('HEAD')
  }

  function fetchRoute (definition: RouteDefinition): FetchRoute {
    const validators = new Map<string, Validate | undefined>()
    const serializers = new Map<number, Serialize>()
    return {
      definition,
      validate (part) {
        if (!validators.has(part)) {
          const schema = definition.schema[part]
          validators.set(part, schema === undefined ? undefined : validation.compiler({ schema, httpPart: part, method: definition.method, url: definition.url } as never) as Validate)
        }
        return validators.get(part)
      },
      serialize (status) {
        let serialize = serializers.get(status)
        if (serialize === undefined) {
          const schema = definition.schema.response[status]
          serialize = schema === undefined
            ? (data: unknown) => JSON.stringify(data)
            : serializerOf({ schema, method: definition.method, url: definition.url, httpStatus: String(status) } as never) as Serialize
          serializers.set(status, serialize)
        }
        return serialize
      }
    }
  }

  return {
    find (method, path) {
      const found = router.find(method as HTTPMethod, path)
      if (found === null) return undefined
      if (found.store === null) throw new URIError(`${path} does not decode`)
      return { route: found.store as FetchRoute, params: { ...found.params } as Record<string, string> }
    },
    allowed (path) {
      return [...methods].filter(method => method !== 'HEAD' && (router.find(method as HTTPMethod, path)?.store ?? null) !== null)
    }
  }
}
