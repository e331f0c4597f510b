import t from 'tap'
import { binOf, keptWarnings, OPENAPI, pointerOf, runTool } from './tools.js'

// Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
interface SpectralResult { code: string; severity: number; message: string; path: (string | number)[] }

t.test('Spectral (spectral:oas, .spectral.yaml) finds no error in openapi.yaml, and only the warnings docs/contract.md keeps', async t => {
  const { code, stdout, stderr } = await runTool(binOf('@stoplight/spectral-cli', 'spectral'), ['lint', OPENAPI, '--format', 'json', '--fail-severity', 'error', '--quiet'])
  const results = JSON.parse(stdout === '' ? '[]' : stdout) as SpectralResult[]
  const described = (severity: number): string[] => results.filter(r => r.severity === severity).map(r => `${r.code} at ${pointerOf(r.path)}`).sort()
  t.same(described(0), [], 'no errors')
  t.equal(code, 0, 'spectral exits 0', { stderr })
  t.same(described(1), keptWarnings('Spectral'), 'the warnings are those kept on purpose')
})
