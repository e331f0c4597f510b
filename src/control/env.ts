import { Type } from 'typebox'
import { renderEnv } from '../config/env-export.js'
import { controlRoute, respondText, type ControlRoute } from './route.js'
import { Enum, StrictObject } from '../core/schemas/common.js'
import { CONTROL_TAGS, responses } from './schemas.js'

const EnvQuery = StrictObject({
  prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$', description: 'Prepended to every name: VITE_, NEXT_PUBLIC_, REACT_APP_…' })),
  format: Type.Optional(Enum(['dotenv', 'json'] as const, { description: 'dotenv (default, text/plain) or json' })),
  baseUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s?#]+$', maxLength: 2048, description: 'Where the frontend reaches the mock (default: as this request did, honouring X-Forwarded-*)' })),
  escape: Type.Optional(Type.Boolean({ description: 'Write $CARD_ID as \\$CARD_ID (default: true for VITE_, NEXT_PUBLIC_ and REACT_APP_, whose loaders expand $NAME)' }))
})

/** The configuration names as a `.env` pointing at this mock, for a frontend to load as is. */
export const envRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/env',
    session: 'none',
    schema: {
      operationId: 'mockEnvExport',
      tags: CONTROL_TAGS,
      summary: 'Every configuration name as a .env line pointing at this mock',
      description: 'One line per configuration name (shared names once), with the routes in effect; path parameters stay placeholders ($CARD_ID). ' +
        '`curl -s localhost:4010/__mock/env?prefix=VITE_ > .env.local`.',
      querystring: EnvQuery,
      response: responses({
        200: {
          description: 'The .env (or JSON with format=json)',
          content: {
            'text/plain': { schema: Type.String() },
            'application/json': { schema: Type.Record(Type.String(), Type.String()) }
          }
        }
      })
    },
    handle: ({ services, request, query }) => {
      const { prefix, format, baseUrl, escape } = query
      const text = renderEnv(services.routes, baseUrl ?? request.baseUrl(), { prefix, format, escapeDollar: escape })
      return respondText(200, text, format === 'json' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8')
    }
  })
]
