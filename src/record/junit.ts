import type { VerifiedCase } from './verify.js'

const escape = (text: string): string => text.replace(/[<>&"']/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)

/** JUnit XML for CI: one test case per replayed exchange, a failure listing its differences. */
export function junitXml (cases: readonly VerifiedCase[]): string {
  const failures = cases.filter(c => c.differences.length > 0).length
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="baas-mock verify" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="baas-mock verify" tests="${cases.length}" failures="${failures}">`]
  for (const c of cases) {
    const name = escape(`#${c.index + 1} ${c.exchange.request.method} ${c.exchange.request.path}`)
    if (c.differences.length === 0) {
      lines.push(`    <testcase classname="${escape(c.exchange.operation)}" name="${name}"/>`)
      continue
    }
    const text = c.differences.map(d => `${c.exchange.operation} ${d.pointer}: ${d.message}`).join('\n')
    lines.push(`    <testcase classname="${escape(c.exchange.operation)}" name="${name}">`,
      `      <failure message="${c.differences.length} difference(s) between the backend and the mock">${escape(text)}</failure>`,
      '    </testcase>')
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}
