import { runGroup } from './run.js'

await runGroup(import.meta.url)
