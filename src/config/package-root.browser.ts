import { fixtureFolderOf } from '../fixtures/memory-files.js'
import { BUNDLED_FIXTURE_FILES } from './bundled-fixture-files.js'

// package-root.ts for the browser: no package folder; the bundled fixtures ship in the bundle as data.

export const PACKAGE_ROOT = 'memory:/baas-mock'
export const BUNDLED_FIXTURES = fixtureFolderOf(BUNDLED_FIXTURE_FILES)
