import { cpSync, mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'

/** The suite's team dialect (an envelope, snake_case fields, lower-case states, a list of errors). */
export const SUITE_DIALECT = fileURLToPath(new URL('./fixtures-dialect/dialect.yaml', import.meta.url))

/**
 * A fixtures folder: the bundled world copied, with `files` written over it (the suite's dialect
 * by default). Copied, because layering a team's partial folder over the bundled world is not
 * this branch's (see the dialect-world branch).
 */
export function dialectWorld (files: Record<string, string> = {}, withSuiteDialect = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-dialect-'))
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  if (withSuiteDialect) cpSync(SUITE_DIALECT, join(dir, 'dialect.yaml'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}
