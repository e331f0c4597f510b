import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../src/config/config.js'
import { generateOpenApiYaml } from './openapi-document.js'

const target = join(PACKAGE_ROOT, 'openapi.yaml')
writeFileSync(target, await generateOpenApiYaml())
console.log(`wrote ${target}`)
