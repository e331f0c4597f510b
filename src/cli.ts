#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { ConfigError } from './config/config-error.js'
import { loadConfig } from './config/config-loader.js'
import { helpText } from './cli/help.js'
import { FixtureError, loadScenarios } from './fixtures/loader.js'
import { loadResponseOverrides } from './fixtures/responses.js'
import { loadEventOverrides } from './fixtures/events.js'
import { fixtureLayers } from './fixtures/layers.js'
import { BUNDLED_FIXTURES } from './config/config.js'
import { loadDialects } from './fixtures/dialect.js'
import { RouteConfigError } from './config/route-config.js'
import { SETTINGS } from './config/settings.js'
import { startServer } from './transports/fastify/server.js'
import { StoreOpenError } from './world/stores/store.js'
import { VERSION } from './config/version.js'
import { printEnv } from './cli/env.js'
import { markServing } from './cli/compile-cache.js'
import { runRecord } from './cli/record.js'
import { runVerify } from './cli/verify.js'

const options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  config: { type: 'string' },
  'env-file': { type: 'string', multiple: true },
  mode: { type: 'string' },
  'env-dir': { type: 'string' },
  route: { type: 'string', multiple: true },
  'base-url': { type: 'string' },
  prefix: { type: 'string' },
  format: { type: 'string' },
  'state-reset': { type: 'boolean' },
  target: { type: 'string' },
  out: { type: 'string' },
  corpus: { type: 'string' },
  junit: { type: 'string' },
  'read-only': { type: 'boolean' },
  header: { type: 'string', multiple: true },
  ...Object.fromEntries(SETTINGS.map(s => [s.flag, { type: 'string' }]))
} as const

async function main (argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  if (values.help === true) return print(helpText(VERSION))
  if (values.version === true) return print(VERSION)
  const command = positionals[0] ?? 'serve'
  if (positionals.length > 1 || !['serve', 'env', 'check-fixtures', 'state-reset', 'record', 'verify'].includes(command)) {
    throw new ConfigError(`unknown command ${positionals.join(' ')}; see baas-mock --help`)
  }
  const config = loadConfig({ flags: values as Record<string, string | boolean | string[] | undefined>, env: process.env, cwd: process.cwd(), isTTY: process.stdout.isTTY === true })
  // A flag only, never a setting: an environment variable left in a deployment would wipe the demo at every start.
  if (values['state-reset'] === true) {
    if (config.stateDir === undefined) throw new ConfigError('--state-reset starts the store in --state-dir (MOCK_STATE_DIR) afresh: give that too')
    config.stateReset = true
  }
  // The server logs them; a one-shot command has no log but stderr.
  if (command !== 'serve') for (const warning of config.startupWarnings) process.stderr.write(`baas-mock: warning: ${warning}\n`)
  if (command === 'check-fixtures') {
    // Everything the server would load from the folder: entities, scenarios and response examples.
    const layers = fixtureLayers(config.fixturesDir, BUNDLED_FIXTURES)
    const scenarios = loadScenarios(layers)
    loadResponseOverrides(layers, scenarios.keys())
    loadEventOverrides(layers, scenarios.keys())
    // The bundled world has no dialect: the top folder's is the one in effect.
    const dialects = loadDialects(layers.at(-1)?.dir ?? config.fixturesDir, scenarios.keys())
    for (const w of dialects.warnings) process.stderr.write(`baas-mock: warning: ${w.file} at ${w.pointer === '' ? '/' : w.pointer}: ${w.rule}\n`)
    const over = layers.length > 1 ? ' over the bundled world' : ''
    return print(`${config.fixturesDir}: valid${over} (${[...scenarios.keys()].join(', ')})`)
  }
  if (command === 'state-reset') return print(await resetState(config.stateDir))
  const stderr = (line: string): void => { process.stderr.write(`${line}\n`) }
  if (command === 'record') return await runRecord(config, values, stderr)
  if (command === 'verify') return await runVerify(config, values, line => { process.stdout.write(`${line}\n`) }, stderr)
  if (command === 'env') return print(printEnv(config, { baseUrl: values['base-url'], prefix: values.prefix, format: values.format }))
  const app = await startServer(config)
  // The launcher's compile cache, made at exit, is worth keeping once the request path was compiled too.
  app.server.once('request', markServing)
  return -1
}

/**
 * The one-off reset: the store's files moved aside, a fresh store made, and the process gone. Run
 * as `docker run --rm … state-reset`, it cannot be repeated by a restart policy, as a
 * --state-reset left in a serving container's command is at every restart.
 */
async function resetState (stateDir: string | undefined): Promise<string> {
  if (stateDir === undefined) throw new ConfigError('state-reset sets aside the store in --state-dir (MOCK_STATE_DIR): give that too')
  const { openSqliteStore } = await import('./world/stores/sqlite.js')
  const { store, asideAs } = await openSqliteStore(stateDir, { reset: true })
  await store.close()
  return asideAs === undefined
    ? `state-reset: no store in ${stateDir} yet; the next start begins afresh`
    : `state-reset: the store in ${stateDir} is kept as ${asideAs}; the next start begins afresh`
}

function print (text: string): number {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
  return 0
}

/** parseArgs explains positionals after an unknown option; the user needs the option's name and where to look. */
function usageMessage (error: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) return `unknown option ${option}; see baas-mock --help`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    // `--seed -1`: parseArgs reads -1 as an option, not as the value.
    if (error.message.includes('ambiguous')) return `${option}: write a value that starts with - as ${option}=<value>; see baas-mock --help`
    return `${option} needs a value; see baas-mock --help`
  }
  return error.message
}

main(process.argv.slice(2)).then(code => {
  if (code >= 0) process.exitCode = code
}, (error: unknown) => {
  const known = error instanceof ConfigError || error instanceof FixtureError || error instanceof RouteConfigError || error instanceof StoreOpenError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true
  // Startup mistakes are the user's to fix: one clear line, no stack trace.
  process.stderr.write(`baas-mock: ${known ? usageMessage(error as Error & { code?: string }) : (error as Error).stack ?? String(error)}\n`)
  process.exitCode = 1
})
