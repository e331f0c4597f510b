import type { DueProcessor } from './timeline.js'

export const cardDueProcessors: DueProcessor[] = []
