import { readFileSync } from 'node:fs'
import t from 'tap'
import { applySections, readmeSections } from '../scripts/readme-sections.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

t.test('the README tables are what the operation and settings tables generate (run `npm run docs`)', async t => {
  t.equal(readme, applySections(readme, readmeSections()))
})

t.test('the README starts with the two commands that must work on a fresh machine', async t => {
  const head = readme.slice(0, 1500)
  t.match(head, 'npm install && npm start')
  t.match(head, 'npm test')
})
