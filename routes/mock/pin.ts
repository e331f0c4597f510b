import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { DomainError } from '../../src/domain/errors.js'
import { openPinLink, setPinWithLink } from '../../src/domain/pin-link.js'
import { fromDomainError } from '../../src/http/problem.js'
import { sessionIdOf } from '../../src/http/request-context.js'
import { HtmlPage, PinPageParams, PinPageQuery, SetPinRequest, SetPinResult } from '../../src/http/schemas/debit-card.js'
import type { MockServices } from '../../src/http/services.js'
import { DEFAULT_SESSION } from '../../src/state/sessions.js'
import type { World } from '../../src/state/world.js'
import { PIN_PAGE_HEADERS, pinErrorPage, pinFormPage } from './pin-page.js'

const TAG = ['Mock control']
/** Where app.ts mounts this plugin (`/__mock`) plus its own path. */
const PIN_PAGE_PATH = '/__mock/pin'

/**
 * The URL handed out by createSetPinUrl. A browser opening it sends no x-mock-session header, so
 * a non-default session travels in the query.
 */
export function pinPageUrl (baseUrl: string, token: string, sessionId: string): string {
  const url = `${baseUrl}${PIN_PAGE_PATH}/${encodeURIComponent(token)}`
  return sessionId === DEFAULT_SESSION ? url : `${url}?session=${encodeURIComponent(sessionId)}`
}

const html = (description: string) => ({ description, content: { 'text/html': { schema: HtmlPage } } })
const problem = (description: string) => ({ ...Type.Ref('Problem'), description })

/** The mock's hosted set-PIN page. Not behind persona auth: the link itself is the credential. */
export async function pinRoutes (app: FastifyInstance, { services }: { services: MockServices }): Promise<void> {
  const worldOf = (request: FastifyRequest): World => {
    const { session } = request.query as { session?: string }
    const world = services.sessions.get(session ?? sessionIdOf(request)).world
    world.settle()
    return world
  }

  app.get('/pin/:token', {
    schema: {
      operationId: 'mockPinPage',
      tags: TAG,
      summary: 'The set-PIN page a createSetPinUrl link opens',
      description: 'A self-contained HTML form. The session comes from `?session=` (as the link carries it) or x-mock-session. ' +
        'An unknown link is 404, an expired or used one 410, a closed card 409, each as an HTML page.',
      params: PinPageParams,
      querystring: PinPageQuery,
      response: {
        200: html('The PIN form'),
        400: problem('Malformed session id'),
        404: html('Unknown link'),
        409: html('The card is closed or its owner cannot make changes'),
        410: html('Expired or already used')
      }
    }
  }, async (request, reply) => {
    const { token } = request.params as { token: string }
    const ctx = worldOf(request).ctx
    reply.headers(PIN_PAGE_HEADERS).type('text/html; charset=utf-8')
    try {
      const { link, card } = openPinLink(ctx, token)
      return pinFormPage(link, card)
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      return reply.code(fromDomainError(error).body.status as 404 | 409 | 410).send(pinErrorPage(error.code, error.message))
    }
  })

  app.post('/pin/:token', {
    schema: {
      operationId: 'mockSetPin',
      tags: TAG,
      summary: 'Set the card PIN through a set-PIN link (what the page submits)',
      description: 'Spends the link and sets the card\'s pinStatus to SET. A guessable PIN is 422 invalid_pin and leaves the link usable.',
      params: PinPageParams,
      querystring: PinPageQuery,
      body: SetPinRequest,
      response: {
        200: { ...SetPinResult, description: 'PIN set' },
        400: problem('Malformed request'),
        404: problem('Unknown link (pin_link_not_found)'),
        409: problem('The card is closed or its owner cannot make changes'),
        410: problem('Expired (pin_link_expired) or already used (pin_link_used)'),
        413: problem('Body too large'),
        415: problem('Body is not JSON'),
        422: problem('A guessable PIN (invalid_pin)')
      }
    }
  }, async (request, reply) => {
    const { token } = request.params as { token: string }
    const { pin } = request.body as { pin: string }
    const card = setPinWithLink(worldOf(request).ctx, token, pin)
    reply.header('cache-control', 'no-store')
    return { cardId: card.id, pinStatus: card.pinStatus }
  })
}
