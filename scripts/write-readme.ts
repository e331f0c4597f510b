import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../src/config/config.js'
import { applySections, GENERATED_FILES, readmeSections, sectionsFor } from './readme-sections.js'

const sections = readmeSections()
for (const name of Object.keys(GENERATED_FILES)) {
  const file = join(PACKAGE_ROOT, name)
  writeFileSync(file, applySections(readFileSync(file, 'utf8'), sectionsFor(name, sections), name))
  console.log(`updated ${file}`)
}
