import { Type, type Static } from 'typebox'
import { DomainError } from '../domain/errors.js'
import { openPinLink, setPinWithLink } from '../domain/pin-link.js'
import type { CoreRequest } from '../core/exchange.js'
import { controlRoute, respond, respondText, type ControlCall, type ControlRoute } from './route.js'
import { fromDomainError } from '../core/problem.js'
import { sessionIdFrom } from '../core/session-id.js'
import { PIN_PAGE_PATH } from '../core/pin-page-url.js'
import { HtmlPage, PinPageParams, PinPageQuery, SetPinRequest, SetPinResult } from '../core/schemas/debit-card.js'
import type { World } from '../world/world.js'
import { PIN_PAGE_HEADERS, pinErrorPage, pinFormPage } from './pin-page.js'

const TAG = ['Mock control']
const HTML = 'text/html; charset=utf-8'
const html = (description: string) => ({ description, content: { 'text/html': { schema: HtmlPage } } })
const problem = (description: string) => ({ ...Type.Ref('Problem'), description })

type PinCall<Body = unknown> = ControlCall<Static<typeof PinPageParams>, Static<typeof PinPageQuery>, Body>

/** The link's session: `?session=` (as the link carries it), else x-mock-session. */
function linkSession (request: CoreRequest): string {
  // The transport validated the query against PinPageQuery before the route runs.
  const { query } = request
  const named = typeof query === 'object' && query !== null && 'session' in query ? query.session : undefined
  return typeof named === 'string' ? named : sessionIdFrom(request.headers)
}

/** The world of the link's session, brought up to its clock. */
function worldOf ({ session }: PinCall): World {
  const world = session().world
  world.settle()
  return world
}

/** The mock's hosted set-PIN page. Not behind persona auth or the admin token: the link itself is the credential. */
export const pinRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: PIN_PAGE_PATH + '/:token',
    public: true,
    session: linkSession,
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
    },
    handle: call => {
      const ctx = worldOf(call).ctx
      try {
        const { link, card } = openPinLink(ctx, call.params.token)
        return respondText(200, pinFormPage(link, card), HTML, { ...PIN_PAGE_HEADERS })
      } catch (error) {
        if (!(error instanceof DomainError)) throw error
        return respondText(fromDomainError(error).body.status, pinErrorPage(error.code, error.message), HTML, { ...PIN_PAGE_HEADERS })
      }
    }
  }),
  controlRoute({
    method: 'POST',
    url: PIN_PAGE_PATH + '/:token',
    public: true,
    session: linkSession,
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
    },
    handle: call => {
      const card = setPinWithLink(worldOf(call).ctx, call.params.token, call.body.pin)
      return respond(200, { cardId: card.id, pinStatus: card.pinStatus }, { 'cache-control': 'no-store' })
    }
  })
]
