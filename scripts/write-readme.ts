import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../src/config/config.js'
import { applySections, readmeSections } from './readme-sections.js'

const file = join(PACKAGE_ROOT, 'README.md')
writeFileSync(file, applySections(readFileSync(file, 'utf8'), readmeSections()))
console.log(`updated ${file}`)
