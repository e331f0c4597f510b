import t from 'tap'
import { binOf, keptWarnings, OPENAPI, runTool } from './tools.js'

interface RedoclyReport {
  problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[]
}

t.test('Redocly lint (recommended rules, redocly.yaml) finds no error in openapi.yaml, and only the warnings docs/contract.md keeps', async t => {
  const { code, stdout, stderr } = await runTool(binOf('@redocly/cli', 'redocly'), ['lint', OPENAPI, '--format=json'])
  const report = JSON.parse(stdout) as RedoclyReport
  const described = (severity: string): string[] => report.problems.filter(p => p.severity === severity)
    .map(p => `${p.ruleId} at ${p.location[0]?.pointer.replace(/^#/, '') ?? '?'}`).sort()
  t.same(described('error'), [], 'no errors')
  t.equal(code, 0, 'redocly exits 0', { stderr })
  t.same(described('warn'), keptWarnings('Redocly'), 'the warnings are those kept on purpose')
})
