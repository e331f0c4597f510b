/**
 * What every transport (Fastify, the Fetch handler, MSW) hands the core and gets back. The core
 * never sees a socket or a framework object: a request arrives parsed and validated, and an answer
 * leaves as status, headers and a body that the transport serialises.
 */
import type { Session } from '../world/sessions.js'
import type { Persona } from '../world/persona.js'

export type Headers = Readonly<Record<string, string | string[] | undefined>>

export interface CoreRequest {
  readonly method: string
  /** Path and query, as received. */
  readonly url: string
  /** Lower-case names. */
  readonly headers: Headers
  readonly params: unknown
  readonly query: unknown
  /** Parsed and validated; an action endpoint sent no body gets `{}`. */
  readonly body: unknown
  /** Whether the client itself sent a body (the journal records only what was sent). */
  readonly sentBody: boolean
  /** Where links handed out (the PIN page) point: the public URL, or what the request says. */
  baseUrl (): string
  /** The session the core resolved for this request, for the transport's journal entry; null before. */
  session: Session | null
  /** Set when that session was just made from the scenario: the answer says so (x-mock-session-created). */
  sessionCreated: boolean
  /**
   * The persona the pipeline resolved: the transport names it in the answer (x-mock-persona) and
   * the journal. Null before, and when there is none (strict auth's 401, the control plane).
   */
  persona: Persona | null
  /** The connecting address, where there is a connection (not in process). */
  readonly clientAddress?: string | undefined
  /**
   * In process, the caller's AbortSignal (`mock.fetch(url, { signal })`): an abort ends the
   * request's waits and what has not run yet does not run. A server's client that hangs up is
   * another matter: what it asked for still happens (see `clientLeft` in the journal).
   */
  readonly signal?: AbortSignal | undefined
  /**
   * Under a team's dialect (src/dialect): the answer as the team's backend shows it. The pipeline
   * renders an answer it keeps for an Idempotency-Key before storing it, so that the first answer
   * and every replay are the same final bytes; other answers are rendered after the core.
   */
  readonly render?: ((answer: Answer) => Answer) | undefined
}

/**
 * A request a transport finished answering, told to whoever listens (the dashboard's event feed,
 * which says `change` after a successful write).
 */
export interface FinishedRequest {
  readonly method: string
  /** Without the query. */
  readonly path: string
  readonly status: number
  /** An operation knows whether it writes (a lock moved to GET still does); anything else goes by its method. */
  readonly writes: boolean
  readonly session: Session | null
}

/** Whether a request that no operation answered writes, by its method. */
export function writesByMethod (method: string): boolean {
  return !(method === 'GET' || method === 'HEAD' || method === 'OPTIONS')
}

export interface Answer {
  status: number
  headers?: Record<string, string>
  /** A JSON value, serialised by the transport with the route's response schema for `status`. */
  body?: unknown
  /** Already serialised (problems, response examples): sent as is, never filtered by a schema. */
  text?: string
  /** Sent as it is written (the dashboard's event stream); the transport cancels it if the client goes away. */
  stream?: ReadableStream<Uint8Array>
  /** With `text` or `stream`. */
  contentType?: string
  /** Drop the connection without an answer (a fault's `reset`). */
  drop?: true
}

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

export function pathOf (url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

export function isThenable<T> (value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === 'function'
}

/** A timer promise without node:timers, so the core runs in a browser too. */
export function sleep (ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms))
}
