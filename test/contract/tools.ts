import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The outside tools that read openapi.yaml, run as a user would, offline. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const OPENAPI = join(ROOT, 'openapi.yaml')

/**
 * Telemetry and update checks off (Redocly sends usage data and asks the npm registry for a newer
 * version unless told not to): the tools must not reach past loopback.
 */
const OFFLINE_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' }

/** The script a package's bin runs: started with this node, its pid is the tool's own (no npx or shell in between to outlive). */
export function binOf (pkg: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }
  const bin = manifest.bin[name]
  if (bin === undefined) throw new Error(`${pkg} has no bin ${name}`)
  return join(ROOT, 'node_modules', pkg, bin)
}

export function startTool (bin: string, args: string[], cwd = ROOT): ChildProcess {
  return spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...OFFLINE_ENV }, stdio: ['ignore', 'pipe', 'pipe'] })
}

export interface ToolResult { code: number | null; stdout: string; stderr: string }

/** Runs a tool to its end; one that has not ended after `timeoutMs` is killed and the promise rejects. */
export function runTool (bin: string, args: string[], { cwd = ROOT, timeoutMs = 60_000 } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = startTool(bin, args, cwd)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${bin} ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`))
    }, timeoutMs)
    child.on('error', error => { clearTimeout(timer); reject(error) })
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

/** Ends a started tool and resolves once it has exited (SIGKILL if SIGTERM is not enough). */
export function stopTool (child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    child.kill('SIGTERM')
  })
}

export type LintTool = 'Redocly' | 'Spectral'

/**
 * The warnings kept on purpose, from the table in docs/contract.md (`| Redocly | rule | `pointer` | why |`),
 * as `rule at pointer`: a lint test fails on any warning not listed and on a listed one that is gone.
 */
export function keptWarnings (tool: LintTool): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'contract.md'), 'utf8')
  const kept: string[] = []
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map(cell => cell.trim().replace(/^`|`$/g, ''))
    if (cells[1] === tool && cells[2] !== undefined && cells[3] !== undefined) kept.push(`${cells[2]} at ${cells[3]}`)
  }
  return kept.sort()
}

/** A JSON pointer from a path of keys (RFC 6901 escapes). */
export function pointerOf (path: readonly (string | number)[]): string {
  return path.map(key => '/' + String(key).replaceAll('~', '~0').replaceAll('/', '~1')).join('')
}
