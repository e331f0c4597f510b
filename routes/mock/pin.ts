import type { FastifyInstance } from 'fastify'
import type { MockServices } from '../../src/http/services.js'

export async function pinRoutes (_app: FastifyInstance, _options: { services: MockServices }): Promise<void> {}
