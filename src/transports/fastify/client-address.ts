/**
 * The client's address for per-client caps. Without trusted proxies it is the socket's: an
 * X-Forwarded-For anyone can send must not let one client pass for many. With `hops` proxies
 * trusted (nginx alone: 1), each appended the address it saw, so the address `hops` entries from
 * the right of [...X-Forwarded-For, socket] is the one the outermost trusted proxy saw; entries to
 * its left were written by the client and are never read.
 */
export function clientAddressOf (socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string | undefined {
  if (hops === 0 || forwardedFor === undefined) return socketAddress
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map(part => part.trim()).filter(part => part !== '')
  // Nearest first: the socket, then what each proxy appended, right to left.
  const nearestFirst = [socketAddress, ...chain.reverse()]
  return nearestFirst[Math.min(hops, nearestFirst.length - 1)]
}
