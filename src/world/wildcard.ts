/**
 * A matcher for patterns where `*` stands for any run of characters (the journal's `?path=`).
 *
 * Not a regular expression: `*a*a*a*a!` compiled to `^.*a.*a.*a.*a!$` backtracks, and on a path
 * the client also chose (3,000 `a`s) that is hours of CPU in one request, with the process frozen.
 * Glob libraries (picomatch, minimatch) compile to such expressions too. With `*` as the only
 * special character, taking each piece between stars at its leftmost place after the previous one
 * is always right (a later place leaves less room for the rest), so one pass with `indexOf` per
 * piece decides, and nothing is ever tried twice.
 */
export function wildcardMatcher (pattern: string): (text: string) => boolean {
  const pieces = pattern.split('*')
  if (pieces.length === 1) return text => text === pattern
  const first = pieces[0] as string
  const last = pieces[pieces.length - 1] as string
  const middle = pieces.slice(1, -1).filter(piece => piece !== '')
  return text => {
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false
    const end = text.length - last.length
    let at = first.length
    for (const piece of middle) {
      const found = text.indexOf(piece, at)
      if (found === -1 || found + piece.length > end) return false
      at = found + piece.length
    }
    return true
  }
}
