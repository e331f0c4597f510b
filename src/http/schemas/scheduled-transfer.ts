import type { TSchema } from 'typebox'

export const TRANSFER_SCHEMAS: TSchema[] = []
