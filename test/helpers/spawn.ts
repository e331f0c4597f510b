import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The built CLI (`npm test` builds first, see the pretest script). */
export const CLI = fileURLToPath(new URL('../../dist/baas-mock.js', import.meta.url))

/**
 * The bundled CLI is left out of coverage (@tapjs/processinfo's documented switch): seen through
 * its source map, its dependencies would count as this project's code. The sources are covered in
 * process; the CLI's tests check what it does.
 */
export const UNCOVERED = { _TAPJS_PROCESSINFO_COVERAGE_: '0' }

/**
 * One temporary folder per test process (a group of test files, test/groups/plan.ts) for the CLIs
 * it starts: they keep their compile cache in it, so they start as a user's do (compiled from the
 * cache after the first). test/cli/compile-cache.test.ts, which starts one cold, runs alone.
 */
const CLI_TMPDIR = mkdtempSync(join(tmpdir(), 'baas-mock-test-tmp-'))
process.once('exit', () => { rmSync(CLI_TMPDIR, { recursive: true, force: true }) })

/** What every CLI under test runs with, whatever else its test gives it. */
export const CLI_ENV = { TMPDIR: CLI_TMPDIR, NODE_DISABLE_COMPILE_CACHE: '', ...UNCOVERED }

export interface RunResult { code: number | null; stdout: string; stderr: string }

/**
 * `as`: another user to run it as (a test run as root checking what a non-root user meets); then
 * without tap's process hooks, which would write their report where that user may not.
 */
export function runCli (args: string[], env: Record<string, string> = {}, timeoutMs = 20_000, as: { uid?: number; gid?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = as.uid === undefined ? [process.execPath, [CLI, ...args]] : ['env', ['-u', 'NODE_OPTIONS', process.execPath, CLI, ...args]]
    const child = spawn(command, commandArgs, { env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...as })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`baas-mock ${args.join(' ')} did not exit within ${timeoutMs} ms`)) }, timeoutMs)
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

/** Starts the server on an ephemeral loopback port and resolves once it listens. */
export function startCli (args: string[], env: Record<string, string> = {}, cli = CLI): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--log-level', 'info', ...args], { env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`server did not start: ${output}`)) }, 20_000)
    const onData = (d: Buffer): void => {
      output += d.toString()
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match?.[1] !== undefined) { clearTimeout(timer); resolve({ child, baseUrl: match[1], output: () => output }) }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', code => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${output}`)) })
  })
}

/** Nothing from the developer's shell may change what the CLI does under test. */
function cleanEnv (): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('MOCK_') || k.startsWith('API_') || ['PORT', 'HOST', 'LOG_LEVEL'].includes(k)) continue
    env[k] = v
  }
  return { ...env, ...CLI_ENV }
}
