import { isObject, join } from './pointer.js'

/** One way the backend's answer and the mock's differ, at a JSON Pointer. */
export interface Difference { pointer: string; message: string }

export function jsonType (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * Compares two answers by shape: which fields exist and their JSON types, never their values
 * (ids, times and amounts differ by nature). Lists compare their first items.
 */
export function shapeDifferences (backend: unknown, mock: unknown, at = ''): Difference[] {
  const b = jsonType(backend)
  const m = jsonType(mock)
  if (b !== m) return [{ pointer: at, message: `${b} in the backend, ${m} in the mock` }]
  if (Array.isArray(backend) && Array.isArray(mock)) {
    return backend.length > 0 && mock.length > 0 ? shapeDifferences(backend[0], mock[0], join(at, 0)) : []
  }
  if (!isObject(backend) || !isObject(mock)) return []
  const differences: Difference[] = []
  for (const key of new Set([...Object.keys(backend), ...Object.keys(mock)])) {
    const pointer = join(at, key)
    if (!Object.hasOwn(backend, key)) differences.push({ pointer, message: 'missing in the backend' })
    else if (!Object.hasOwn(mock, key)) differences.push({ pointer, message: 'missing in the mock' })
    else differences.push(...shapeDifferences(backend[key], mock[key], pointer))
  }
  return differences
}
