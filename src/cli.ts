#!/usr/bin/env node
import { defaultConfig } from './config.js'
import { startServer } from './server.js'

const config = defaultConfig({
  port: Number(process.env.PORT ?? 4010),
  host: process.env.HOST ?? '127.0.0.1',
  prettyLogs: process.stdout.isTTY === true
})

startServer(config).catch((error: unknown) => {
  console.error(`baas-mock: ${(error as Error).message}`)
  process.exit(1)
})
