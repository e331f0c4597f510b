import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { pinnedFetch } from './pinned-send.js'

/**
 * Where webhooks may not go when the control plane is open to a network (`--admin-token none` on
 * a host other than loopback): anyone reaching the port could otherwise add an endpoint inside the
 * mock's network and read, from each attempt's status or error, which internal ports answer.
 * URLs are parsed as fetch parses them, so decimal (`http://2130706433`), hex, octal and short
 * forms arrive here as the dotted address they mean; names are resolved before each attempt, so a
 * name that later points inside (DNS rebinding) is refused then, and the attempt connects through
 * `connectLookup`, so a name rebound between that check and the connection is refused too. `--webhook-allow-private` lifts it.
 */

/** Address kinds, each a BlockList: node:net compares IPv4-mapped IPv6 (::ffff:a.b.c.d) with the IPv4 subnets too. */
const RANGES: ReadonlyArray<{ kind: string; subnets: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> }> = [
  { kind: 'loopback', subnets: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']] },
  { kind: 'private', subnets: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6']] },
  { kind: 'link-local', subnets: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']] },
  {
    kind: 'reserved',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'], ['192.0.0.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
      ['::', 128, 'ipv6'], ['ff00::', 8, 'ipv6'],
      // NAT64 and 6to4 carry an IPv4 address inside: refused whole rather than decoded.
      ['64:ff9b::', 96, 'ipv6'], ['2002::', 16, 'ipv6']
    ]
  }
]

const LISTS = RANGES.map(({ kind, subnets }) => {
  const list = new BlockList()
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family)
  return { kind, list }
})

/** The kind of address `address` is when webhooks may not go there ('loopback', 'private'…), or undefined. */
export function blockedKind (address: string): string | undefined {
  const family = isIP(address)
  if (family === 0) return undefined
  return LISTS.find(({ list }) => list.check(address, family === 4 ? 'ipv4' : 'ipv6'))?.kind
}

/** A URL's host as an address or a name: brackets and a final dot taken off, lower case. */
function hostOf (url: string): string | undefined {
  if (!URL.canParse(url)) return undefined
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
}

const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost')

const refusal = (url: string, what: string): string =>
  `${url} is ${what}: the control plane is open to a network, so webhooks go to public addresses only (--webhook-allow-private to allow private ones)`

/** Resolves a name to every address it has now (dns.lookup, as fetch resolves it); tests pass one of their own. */
export type Lookup = (host: string) => Promise<string[]>

const systemLookup: Lookup = async host => (await dnsLookup(host, { all: true, verbatim: true })).map(entry => entry.address)

export interface TargetGuard {
  /** Why `url` may not be an endpoint, from the URL alone (an address, a localhost name); undefined when it may. */
  literal: (url: string) => string | undefined
  /** Why an attempt may not go to `url` now, its name resolved; undefined when it may. */
  check: (url: string) => Promise<string | undefined>
  /** Resolves a name for a connection, failing it when an address is blocked: what the connection resolves is checked too. */
  connectLookup: LookupFunction
  /** The fetch attempts go through: its connections resolve with `connectLookup`. */
  send: typeof fetch
}

/**
 * The guard for an open control plane. `trusted`: the URL the operator configured (`--webhook-url`),
 * sent to wherever it points, as it was not given through the control plane.
 */
export function targetGuard (options: { trusted?: string | undefined; lookup?: Lookup } = {}): TargetGuard {
  const resolve = options.lookup ?? systemLookup
  const trustedHost = options.trusted === undefined ? undefined : hostOf(options.trusted)
  const literal = (url: string): string | undefined => {
    if (url === options.trusted) return undefined
    const host = hostOf(url)
    if (host === undefined) return undefined
    if (isLocalhostName(host)) return refusal(url, 'a loopback name')
    const kind = blockedKind(host)
    return kind === undefined ? undefined : refusal(url, `a ${kind} address (${host})`)
  }
  const connectLookup: LookupFunction = (host, options, callback) => {
    resolve(host).then(addresses => {
      const blocked = addresses.map(address => ({ address, kind: blockedKind(address) })).find(found => found.kind !== undefined)
      if (blocked !== undefined && host !== trustedHost) throw Object.assign(new Error(refusal(host, `a name for a ${blocked.kind ?? ''} address (${blocked.address})`)), { code: 'EBLOCKED' })
      const found = addresses.map(address => ({ address, family: isIP(address) }))
      if (found[0] === undefined) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' })
      if (options.all === true) callback(null, found)
      else callback(null, found[0].address, found[0].family)
    }).catch((error: NodeJS.ErrnoException) => { callback(error, '', 0) })
  }
  return {
    literal,
    connectLookup,
    send: pinnedFetch(connectLookup),
    check: async url => {
      const found = literal(url)
      const host = hostOf(url)
      if (found !== undefined || host === undefined || url === options.trusted || isIP(host) !== 0) return found
      let addresses: string[]
      try {
        addresses = await resolve(host)
      } catch (error) {
        // As fetch would have said it: the attempt failed, with the resolver's code.
        return `${host} did not resolve (${(error as { code?: string }).code ?? 'no address'})`
      }
      for (const address of addresses) {
        const kind = blockedKind(address)
        if (kind !== undefined) return refusal(url, `a name for a ${kind} address (${address})`)
      }
      return undefined
    }
  }
}
