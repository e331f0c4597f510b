// The last step of `npm run build`: scripts/build-if-stale.js compares the sources with this file.
import { writeFileSync } from 'node:fs'
import { STAMP } from './build-if-stale.js'

writeFileSync(STAMP, `${new Date().toISOString()}\n`)
