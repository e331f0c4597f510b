import { randomBytes } from 'node:crypto'
import type { Config } from '../config/config.js'
import { ConfigError } from '../config/config-error.js'
import { learn } from '../record/learn.js'
import { operationMatcher } from '../record/operations.js'
import { startRecorder, STOP_PATH } from '../record/proxy.js'
import { RECORDED_FILES, writeRecording } from '../record/write.js'
import { join } from 'node:path'

export function targetUrl (value: string | undefined, command: string): URL {
  if (value === undefined) throw new ConfigError(`${command} needs --target URL (your backend, e.g. --target https://dev-api.example.com)`)
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // Reported below with the value.
  }
  throw new ConfigError(`--target ${value}: give an http:// or https:// URL`)
}

/**
 * `baas-mock record`: proxies to the backend until SIGTERM, SIGINT or POST /__mock/record/stop,
 * then writes what it learned to --out and exits 0.
 */
export async function runRecord (config: Config, values: { target?: string | undefined; out?: string | undefined }, log: (line: string) => void): Promise<number> {
  const target = targetUrl(values.target, 'record')
  const out = values.out
  if (out === undefined) throw new ConfigError('record needs --out DIR, the fixtures folder it writes')
  const recorder = await startRecorder({ target, host: config.host, port: config.port, matcher: operationMatcher(config.routes), onError: line => { log(`baas-mock: ${line}`) } })
  log(`baas-mock: recording at ${recorder.url}, proxying to ${target.href}; stop with Ctrl-C, SIGTERM or POST ${STOP_PATH}`)
  let onSignal = (): void => {}
  const signalled = new Promise<void>(resolve => { onSignal = resolve })
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)
  await Promise.race([signalled, recorder.stopRequested])
  process.off('SIGTERM', onSignal)
  process.off('SIGINT', onSignal)
  await recorder.close()
  const learned = learn(recorder.exchanges, { salt: randomBytes(12).toString('base64url') })
  // The routes this recording matched on, where they are not the mock's own: the folder is served and verified on them.
  const moved = Object.fromEntries(Object.keys(config.routeSources).flatMap(name => config.routes[name] === undefined ? [] : [[name, config.routes[name]]]))
  writeRecording(out, learned, recorder.exchanges, [...recorder.unmatched], target.href, moved)
  log(`baas-mock: wrote ${out} from ${recorder.exchanges.length} exchange(s); see ${out}/REPORT.md (${learned.notes.guessed.length} guess(es), ${learned.notes.edit.length} hand edit(s))`)
  if (Object.keys(moved).length > 0) log(`baas-mock: its routes are in ${join(out, RECORDED_FILES.routes)}: serve it with baas-mock --fixtures ${out} --env-file ${join(out, RECORDED_FILES.routes)}, and verify with the same --env-file`)
  if (recorder.unmatched.size > 0) log(`baas-mock: proxied but not kept (no configured route): ${[...recorder.unmatched].join(', ')}`)
  return 0
}
