import { lazySerializerFactory } from './serializers.js'
import { SERIALIZED_AS, SHARED_SCHEMAS } from './schemas/index.js'

type Serialize = (data: unknown) => string
type SerializerOf = ReturnType<ReturnType<typeof lazySerializerFactory>>

let serializerOf: SerializerOf | undefined

/**
 * Writes an answer's JSON body as the transports do (fast-json-stringify, the route's response
 * schema for the status, flat schemas where the document has a oneOf), for the few answers the core
 * must hold as text: those kept for idempotent replay. Compiled on first use, per status.
 */
export function answerSerializer (response: Readonly<Record<number, unknown>>, method: string, url: string): (status: number, body: unknown) => string {
  const compiled = new Map<number, Serialize>()
  return (status, body) => {
    let serialize = compiled.get(status)
    if (serialize === undefined) {
      const schema = response[status]
      serialize = schema === undefined ? (data: unknown) => JSON.stringify(data) : factory()({ schema, method, url, httpStatus: String(status) } as never) as Serialize
      compiled.set(status, serialize)
    }
    return serialize(body)
  }
}

function factory (): SerializerOf {
  if (serializerOf === undefined) {
    const shared: Record<string, unknown> = {}
    for (const schema of SHARED_SCHEMAS) shared[(schema as { $id: string }).$id] = schema
    serializerOf = lazySerializerFactory(SERIALIZED_AS)(shared as never, {} as never)
  }
  return serializerOf
}
