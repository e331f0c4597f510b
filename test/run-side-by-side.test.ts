import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

// `npm test` starts with `node scripts/run-side-by-side.js typecheck lint`: a failing type check
// must still fail npm test, and each script's output must come out whole, not interleaved (npm test
// itself is the case where both pass).
const SCRIPT = fileURLToPath(new URL('../scripts/run-side-by-side.js', import.meta.url))

t.test('both scripts run; a failure fails the whole with its exit code, and each output is printed whole', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'side-by-side-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const say = (lines: string[], code: number): string => `node -e "${lines.map(line => `console.log('${line}');`).join('')}process.exitCode=${code}"`
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'side-by-side', version: '1.0.0', private: true,
    scripts: { first: say(['first one', 'first two'], 0), second: say(['second one', 'second two'], 3) }
  }))
  const failed = spawnSync(process.execPath, [SCRIPT, 'first', 'second'], { cwd: dir, encoding: 'utf8' })
  t.equal(failed.status, 3, 'the failing script\'s exit code')
  t.match(failed.stdout, /first one\nfirst two\n/, 'the first script\'s output, whole')
  t.match(failed.stdout, /second one\nsecond two\n/, 'the second script\'s output, whole')
  t.match(failed.stdout, /npm run second failed \(exit code 3\)/)
})
