import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'

/**
 * A fetch for webhook attempts whose every connection resolves its name through `lookup`, so the
 * address vetted is the address connected to. With fetch the guard resolved the name, then fetch
 * resolved it again: a name answering public then private (DNS rebinding with a short TTL) slipped
 * through between the two; now the connection's own resolution is checked. node:http takes a `lookup` per request; the global fetch takes none.
 * Only what the dispatcher asks of fetch: a POST with a string body, a signal, the status; the
 * answer's body is never read (a receiver's answer is not ours to keep).
 */
export function pinnedFetch (lookup: LookupFunction): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    const body = typeof init.body === 'string' ? init.body : ''
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = send(url, {
        method: init.method ?? 'GET',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        signal: init.signal ?? undefined
      }, (answer: IncomingMessage) => {
        resolve(answer.statusCode ?? 0)
        answer.destroy()
      })
      // As fetch rejects: the cause carries the system code (ECONNREFUSED…) the attempt records.
      outgoing.on('error', error => reject(init.signal?.aborted === true ? init.signal.reason : new TypeError('fetch failed', { cause: error })))
      outgoing.end(body)
    })
    if (status < 200 || status > 599) throw new TypeError(`the receiver answered ${status}, which is no HTTP status`)
    return new Response(null, { status })
  }
}
