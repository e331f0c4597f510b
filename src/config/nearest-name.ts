import { closest, distance } from 'fastest-levenshtein'

/** How far a misspelt configuration name may be from the one meant. */
export const ROUTE_NAME_REACH = 2

/**
 * The known name a mistyped one was most likely meant as: the same but for letter case, or the
 * nearest within `reach` edits and within a third of its length (a typo or two, not another word:
 * `XX` is no typo of `TX`). Undefined when none is that near.
 */
export function nearestName (given: string, known: readonly string[], reach: number): string | undefined {
  const sameLetters = known.find(name => name.toLowerCase() === given.toLowerCase())
  if (sameLetters !== undefined || known.length === 0) return sameLetters
  const nearest = closest(given, [...known])
  return distance(given, nearest) <= Math.min(reach, Math.floor(given.length / 3)) ? nearest : undefined
}
