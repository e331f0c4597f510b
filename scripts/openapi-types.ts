import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import { PACKAGE_ROOT } from '../src/config/config.js'

/**
 * `baas-mock/openapi`: the types of openapi.yaml (`paths`, `components`, `operations`) for
 * openapi-fetch and friends, generated at build time so that a user needs no generator.
 */
const ast = await openapiTS(pathToFileURL(join(PACKAGE_ROOT, 'openapi.yaml')))
writeFileSync(join(PACKAGE_ROOT, 'dist/openapi.d.ts'), `// Generated from openapi.yaml by openapi-typescript at build time.\n${astToString(ast)}`)
// A module to resolve, for bundlers that look for one behind a type-only import.
writeFileSync(join(PACKAGE_ROOT, 'dist/openapi.js'), 'export {}\n')
