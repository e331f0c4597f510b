import type { FastifyInstance } from 'fastify'
import { buildApp, type BuildOptions } from '../../src/transports/fastify/app.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { ContractValidator } from './contract.js'

/** A Monday, mid-afternoon UTC: every test world starts here unless it says otherwise. */
export const TEST_NOW = new Date('2026-11-23T15:00:00.000Z')

export const TOKENS = { maya: 'tok_maya', jordan: 'tok_jordan', sam: 'tok_sam', riley: 'tok_riley' } as const

export interface CallOptions {
  body?: unknown
  /** Raw payload (malformed JSON tests); sent as is. */
  payload?: string
  token?: string
  session?: string
  headers?: Record<string, string>
}

export interface CallResult {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string
}

export interface TestApp {
  app: FastifyInstance
  call: (method: string, url: string, options?: CallOptions) => Promise<CallResult>
}

interface Teardown { teardown: (fn: () => unknown) => void }

/** Builds a deterministic app (frozen clock, seeded ids) and checks every response against the contract. */
export async function buildTestApp (t: Teardown, overrides: Partial<Config> = {}, options: Omit<BuildOptions, 'logger'> = {}): Promise<TestApp> {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent', ...overrides }), { logger: false, ...options })
  t.teardown(() => app.close())
  await app.ready()
  const contract = new ContractValidator(app.swagger() as never)
  const call = async (method: string, url: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.session !== undefined) headers['x-mock-session'] = options.session
    let payload: string | undefined = options.payload
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) })
    const contentType = res.headers['content-type']
    contract.check(method, url, res.statusCode, typeof contentType === 'string' ? contentType : undefined, res.body, res.headers)
    if (res.statusCode >= 400 && res.headers['x-mock-source'] !== 'override' && typeof contentType === 'string' && !contentType.startsWith('application/problem+json')) {
      throw new Error(`${method} ${url} answered ${res.statusCode} with ${contentType}, not application/problem+json`)
    }
    let body: unknown = res.body
    if (typeof contentType === 'string' && contentType.includes('json') && res.body !== '') body = JSON.parse(res.body)
    return { status: res.statusCode, headers: res.headers, body, text: res.body }
  }
  return { app, call }
}
