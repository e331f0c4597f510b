import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

/**
 * Fastify compiles a serializer for every status of every route when it starts, although most
 * are never used (problem bodies are sent pre-serialized). Compiling on first use instead cuts
 * the cold start by half a second; the first request of each route pays a few milliseconds.
 */
type SerializerFactory = ReturnType<typeof SerializerSelector>

export function lazySerializerFactory (): SerializerFactory {
  const eager = SerializerSelector()
  return ((externalSchemas: unknown, options: unknown) => {
    const compileRoute = eager(externalSchemas as never, options as never)
    return (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
      let serialize: ((data: unknown) => string) | undefined
      return (data: unknown) => (serialize ??= compileRoute(route) as (data: unknown) => string)(data)
    }
  }) as unknown as SerializerFactory
}
