import type { DueProcessor } from './timeline.js'

export const verificationDueProcessors: DueProcessor[] = []
