import { closest, distance } from 'fastest-levenshtein'

/**
 * The known name a mistyped one was most likely meant as: the same but for letter case, or the
 * nearest within `reach` edits (a typo or two, not another word). Undefined when none is that near.
 */
export function nearestName (given: string, known: readonly string[], reach: number): string | undefined {
  if (known.length === 0) return undefined
  const sameLetters = known.find(name => name.toLowerCase() === given.toLowerCase())
  if (sameLetters !== undefined) return sameLetters
  const nearest = closest(given, [...known])
  return distance(given, nearest) <= reach ? nearest : undefined
}
