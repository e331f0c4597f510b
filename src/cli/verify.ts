import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { Compile } from 'typebox/compile'
import type { Config } from '../config/config.js'
import { ConfigError } from '../config/config-error.js'
import { DialectFile } from '../dialect/schema.js'
import { FixtureError } from '../fixtures/loader.js'
import { RouteConfigError } from '../config/route-config.js'
import { createMock } from '../transports/fetch/mock.js'
import { CorpusError, parseJsonl } from '../record/exchange.js'
import { junitXml } from '../record/junit.js'
import { CannotVerifyError, describeDifferences, verify } from '../record/verify.js'
import { RECORDED_FILES } from '../record/write.js'
import { targetUrl } from './record.js'

export interface VerifyFlags {
  target?: string | undefined
  corpus?: string | undefined
  junit?: string | undefined
  'read-only'?: boolean | undefined
  header?: string[] | undefined
}

const checkDialect = Compile(DialectFile)

function headers (values: readonly string[]): Record<string, string> {
  return Object.fromEntries(values.map(value => {
    const colon = value.indexOf(':')
    if (colon < 1) throw new ConfigError(`--header ${value}: write it as "Name: value"`)
    return [value.slice(0, colon).trim(), value.slice(colon + 1).trim()]
  }))
}

function readDialect (dir: string): DialectFile | undefined {
  const file = join(dir, RECORDED_FILES.dialect)
  if (!existsSync(file)) return undefined
  const value = parse(readFileSync(file, 'utf8')) as unknown
  if (!checkDialect.Check(value)) throw new CorpusError(`${file}: not a dialect file (see docs/reference/dialect.md)`)
  return value
}

/**
 * `baas-mock verify`: the corpus replayed against the backend and the mock (in process, through
 * its Fetch transport: the same answers as its HTTP server, no port to find, a fresh world each
 * run), compared by shape. 0 agree, 1 drift, 2 cannot run.
 */
export async function runVerify (config: Config, values: VerifyFlags, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const dir = config.fixturesDir
  try {
    const target = targetUrl(values.target, 'verify')
    const extra = headers(values.header ?? [])
    const corpusFile = values.corpus ?? join(dir, RECORDED_FILES.exchanges)
    if (!existsSync(corpusFile)) throw new CorpusError(`${corpusFile}: no corpus (record one with baas-mock record, or give --corpus FILE)`)
    const corpus = parseJsonl(readFileSync(corpusFile, 'utf8'), corpusFile)
    const dialect = readDialect(dir)
    const mock = await createMock({ fixtures: dir, routes: config.routes })
    try {
      const cases = await verify({ corpus, target, mock: mock.fetch, dialect, readOnly: values['read-only'] === true, headers: extra, onSkip: out })
      for (const line of describeDifferences(cases)) out(line)
      const drifted = cases.filter(c => c.differences.length > 0).length
      if (values.junit !== undefined) writeFileSync(values.junit, junitXml(cases))
      out(`baas-mock verify: ${cases.length} exchange(s) replayed against ${target.href} and the mock on ${dir}: ${drifted === 0 ? 'they agree' : `${drifted} differ`}`)
      return drifted === 0 ? 0 : 1
    } finally {
      await mock.close()
    }
  } catch (error) {
    if (error instanceof CannotVerifyError || error instanceof CorpusError || error instanceof FixtureError || error instanceof ConfigError || error instanceof RouteConfigError) {
      err(`baas-mock verify: cannot run: ${error.message}`)
      return 2
    }
    throw error
  }
}
