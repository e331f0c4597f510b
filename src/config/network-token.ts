import { randomBytes } from 'node:crypto'
import { BlockList, isIP } from 'node:net'

/** `--admin-token none`: the control plane open on purpose, whatever the host. */
export const NO_ADMIN_TOKEN = 'none'

/** Who may use the control plane (`/__mock/*` but the PIN page and the dashboard's files). */
export interface AdminAccess {
  /** The token the control plane asks for; undefined: open to anyone who reaches the port. */
  token: string | undefined
  /** Made up for this run, because nobody set one and the port is reachable from a network. */
  generated: boolean
  /** Open although reachable from a network (`none`): said at start-up. */
  openToNetwork: boolean
}

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/** Whether only this machine can reach a listener on `host`; any name but localhost may resolve elsewhere. */
export function isLoopbackHost (host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 subnet, and no host name.
  return address === 'localhost' || LOOPBACK.check(address, address.includes(':') ? 'ipv6' : 'ipv4')
}

/**
 * Whether a Host names the server by a DNS name that a page could point at 127.0.0.1 (DNS
 * rebinding): not an IP literal, and not localhost, which resolvers keep on loopback (RFC 6761).
 */
export function isRebindableHost (hostname: string): boolean {
  const name = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (name === '' || name === 'localhost' || name.endsWith('.localhost')) return false
  return isIP(name) === 0
}

/**
 * A mock on loopback stays open, as a developer expects; one reachable from a network (0.0.0.0 in a
 * container) would hand every MFA code and reset to whoever reaches the port, so without a token
 * of its own it gets a random one, as Jupyter does. `none` opens it anyway, on purpose.
 */
export function adminAccess (configured: string | undefined, host: string): AdminAccess {
  const local = isLoopbackHost(host)
  if (configured === NO_ADMIN_TOKEN) return { token: undefined, generated: false, openToNetwork: !local }
  if (configured !== undefined) return { token: configured, generated: false, openToNetwork: false }
  if (local) return { token: undefined, generated: false, openToNetwork: false }
  return { token: randomBytes(24).toString('base64url'), generated: true, openToNetwork: false }
}
