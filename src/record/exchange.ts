import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'

/** One request and its answer as the recorder saw them (the line format of exchanges.jsonl). */
const Message = {
  headers: Type.Record(Type.String(), Type.String()),
  /** The body parsed, when it was JSON. */
  json: Type.Optional(Type.Unknown()),
  /** The body as text, when it was not JSON (or not parseable). */
  text: Type.Optional(Type.String()),
  /** The body was larger than the recorder keeps (it went through whole, but was not kept). */
  truncated: Type.Optional(Type.Literal(true))
}

export const Exchange = Type.Object({
  /** The mock's operation id the request matched, by the configured routes. */
  operation: Type.String(),
  /** The path parameters, named as the operation names them (`cardId`). */
  params: Type.Record(Type.String(), Type.String()),
  request: Type.Object({ method: Type.String(), path: Type.String(), query: Type.String(), ...Message }),
  response: Type.Object({ status: Type.Integer(), ...Message })
})
export type Exchange = Static<typeof Exchange>

const check = Compile(Exchange)

export class CorpusError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'CorpusError'
  }
}

export function toJsonl (exchanges: readonly Exchange[]): string {
  return exchanges.map(e => JSON.stringify(e)).join('\n') + (exchanges.length > 0 ? '\n' : '')
}

/** Reads exchanges.jsonl; a line that is not an exchange is refused with its number. */
export function parseJsonl (text: string, label: string): Exchange[] {
  const exchanges: Exchange[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new CorpusError(`${label}:${i + 1}: not JSON`)
    }
    if (!check.Check(value)) throw new CorpusError(`${label}:${i + 1}: not a recorded exchange (operation, params, request, response)`)
    exchanges.push(value)
  })
  return exchanges
}

/** The media type without parameters, lower case (`application/json`). */
export function mediaType (headers: Readonly<Record<string, string>>): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** The body as JSON when the media type says JSON and it parses; else as text. */
export function bodyOf (contentType: string, bytes: Buffer): { json?: unknown; text?: string } {
  if (bytes.length === 0) return {}
  const text = bytes.toString('utf8')
  if (/[/+]json$/.test(contentType)) {
    try {
      return { json: JSON.parse(text) as unknown }
    } catch {
      // A JSON media type with a broken body: kept as the text it was.
    }
  }
  return { text }
}
