import type { DueProcessor } from './timeline.js'

export const transferDueProcessors: DueProcessor[] = []
