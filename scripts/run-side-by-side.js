// `npm test` runs the type check and lint side by side before tap: each is one busy thread, and the
// test machine has two cores (together about as long as the type check alone). Each one's output is
// printed whole as it ends, so the two never interleave; the exit code is the first failure's.
// Plain JavaScript, so it runs before anything is built.
import { Buffer } from 'node:buffer'
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import process from 'node:process'

const scripts = process.argv.slice(2)
const npm = process.env.npm_execpath

/** Runs `npm run <script>` with its output kept, and resolves with its exit code and output. */
function run (script) {
  // npm_execpath is set when npm runs this file: the same npm, whatever the PATH holds (a package
  // manager that is a binary rather than a script is run as it is).
  const child = npm === undefined
    ? spawn('npm', ['run', script], { shell: process.platform === 'win32' })
    : /\.[cm]?js$/.test(npm) ? spawn(process.execPath, [npm, 'run', script]) : spawn(npm, ['run', script])
  const output = []
  child.stdout.on('data', chunk => output.push(chunk))
  child.stderr.on('data', chunk => output.push(chunk))
  return new Promise(resolve => {
    child.on('error', error => resolve({ script, code: 1, output: [Buffer.from(`${error.message}\n`)] }))
    // Killed by a signal: 128 + its number, as a shell says (137 for the OOM killer's SIGKILL).
    child.on('close', (code, signal) => resolve({ script, code: code ?? 128 + (constants.signals[signal] ?? 0), output }))
  })
}

process.stdout.write(`running ${scripts.join(' and ')} side by side\n`)
const results = await Promise.all(scripts.map(async script => {
  const result = await run(script)
  process.stdout.write(Buffer.concat(result.output))
  if (result.code !== 0) process.stdout.write(`npm run ${script} failed (exit code ${result.code})\n`)
  return result
}))
process.exitCode = results.find(result => result.code !== 0)?.code ?? 0
