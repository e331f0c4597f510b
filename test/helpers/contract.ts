import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ValidateFunction } from 'ajv'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>
  components?: { schemas?: Record<string, object> }
}

/**
 * Validates responses against an OpenAPI 3.1 document with a plain JSON Schema validator, not
 * Fastify's serializer: a body that the document does not describe fails the test that got it.
 */
export class ContractValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true })
  private readonly compiled = new Map<string, ValidateFunction>()
  private readonly matchers: { method: string; regex: RegExp; template: string }[] = []

  constructor (private readonly doc: OpenApiDoc) {
    addFormats(this.ajv)
    // The components travel as one schema document so `#/components/...` refs resolve inside it.
    this.ajv.addSchema({ $id: 'openapi', components: doc.components ?? {} })
    for (const [template, methods] of Object.entries(doc.paths)) {
      const regex = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '/?$')
      for (const method of Object.keys(methods)) this.matchers.push({ method: method.toUpperCase(), regex, template })
    }
  }

  /**
   * Throws with a readable message when the response is not what the document promises.
   * Responses marked `x-mock-source` (a response override, a `Prefer: code` or an injected fault)
   * are user-defined and not bound by the contract.
   */
  check (method: string, url: string, status: number, contentType: string | undefined, body: string, headers: Record<string, unknown> = {}): void {
    if (headers['x-mock-source'] !== undefined) return
    const path = url.split('?')[0] ?? url
    const match = this.matchers.find(m => m.method === method.toUpperCase() && m.regex.test(path))
    if (match === undefined) return // not an API operation (control plane without schema, docs)
    const operation = this.doc.paths[match.template]?.[method.toLowerCase()]
    const responses = operation?.responses ?? {}
    const response = responses[String(status)] ?? responses.default
    if (response === undefined) {
      throw new Error(`Contract: ${method} ${match.template} answered ${status}, which the document does not list (${Object.keys(responses).join(', ')})`)
    }
    if (response.content === undefined || body === '') return
    const type = (contentType ?? '').split(';')[0]?.trim() ?? ''
    const media = response.content[type] ?? response.content['application/json']
    if (media?.schema === undefined) throw new Error(`Contract: ${method} ${match.template} ${status} sent ${type}, not documented`)
    const key = `${match.template} ${method} ${status} ${type}`
    let validate = this.compiled.get(key)
    if (validate === undefined) {
      validate = this.ajv.compile(rewriteRefs(media.schema))
      this.compiled.set(key, validate)
    }
    const parsed: unknown = type.includes('json') ? JSON.parse(body) : body
    if (!validate(parsed)) {
      throw new Error(`Contract: ${method} ${path} ${status} body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${body.slice(0, 500)}`)
    }
  }
}

function rewriteRefs (schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object
}
