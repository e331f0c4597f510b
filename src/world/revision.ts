let last = 0

/**
 * A number never handed out before in this process: the revision of a world, outbox or fault list
 * after a change. Unique across objects, so a store that saved one object's revision never takes
 * another's (a reset's new world) for unchanged.
 */
export function nextRevision (): number {
  return ++last
}
