import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import { installErrorHandling } from './errors.js'
import { HttpProblem, problem } from './problem.js'

export const DOCS_PREFIX = '/docs'

/** A `..` segment, as @fastify/static's `send` finds it in the decoded path (slash or backslash). */
const UP_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)/

/**
 * Whether the path climbs a folder up. Clients remove `..` segments before sending (RFC 3986);
 * one that arrives, often %-encoded, is a probe for files outside the docs' folder.
 */
function climbsUp (url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  try {
    return UP_SEGMENT.test(decodeURIComponent(path))
  } catch {
    return false // a malformed escape is the router's to refuse (400 malformed_url)
  }
}

/**
 * Swagger UI at /docs, served by @fastify/swagger-ui on an inner Fastify app built on the first
 * visit. Loading the plugin and @fastify/static was a fifth of the cold start (measured: about
 * 120 ms of 650), paid by every CI job although most never open the page. The inner app shows the
 * main app's document as it is once routes are final (served as /openapi.json serves it), and
 * answers errors as problem+json too.
 */
export function installLazyDocs (app: FastifyInstance, routerOptions: { ignoreTrailingSlash: boolean; maxParamLength: number }, served: (request: FastifyRequest) => object): void {
  let inner: Promise<FastifyInstance> | undefined
  app.addHook('onClose', async () => {
    const docs = await inner?.catch(() => undefined)
    await docs?.close()
  })
  const build = async (): Promise<FastifyInstance> => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui')
    // The main app's logger, for the inner app's errors; its own request lines would repeat the main app's.
    const docs = Fastify({ loggerInstance: app.log, logController: new LogController({ disableRequestLogging: true }), routerOptions })
    installErrorHandling(docs)
    await docs.register(swagger, { mode: 'static', specification: { document: app.swagger() as never } })
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { deepLinking: true },
      // "Try it out" calls the mock that served the page, as /openapi.json names it.
      transformSpecification: (_document, request) => served(request),
      transformSpecificationClone: false
    })
    await docs.ready()
    return docs
  }
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (climbsUp(request.url)) {
      throw new HttpProblem(problem(400, 'path_traversal', 'The path has a ".." segment; the docs serve no file outside their folder.', {
        instance: request.url.split('?', 1)[0]
      }))
    }
    inner ??= build().catch((error: unknown) => {
      inner = undefined // a failed build is tried again on the next visit
      throw error
    })
    const docs = await inner
    // Headers the main app set already (CORS) are sent by the inner app's reply, not this one.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value)
    reply.hijack()
    docs.routing(request.raw, reply.raw)
  }
  app.get(DOCS_PREFIX, { schema: { hide: true } }, handler)
  app.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, handler)
}
