import { runFiles } from '../../groups/run.js'

await runFiles([new URL('./ends-early.ts', import.meta.url), new URL('./loads-late.ts', import.meta.url), new URL('./missing.ts', import.meta.url)], 'the fixture group')
