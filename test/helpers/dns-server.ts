import { createSocket } from 'node:dgram'

interface Teardown { teardown: (fn: () => unknown) => void }

export interface DnsServer {
  readonly port: number
  /** What a name answers from now on: IPv4 addresses (none: NXDOMAIN). */
  set: (name: string, addresses: readonly string[]) => void
}

/**
 * A DNS server on loopback that answers A queries from a table the test changes, with a TTL of 1 s:
 * the stand-in for Docker's embedded DNS (127.0.0.11), where a restarted container's name answers
 * its new address. Only what nginx's resolver asks is answered (one question, type A).
 */
export async function startDns (t: Teardown): Promise<DnsServer> {
  const names = new Map<string, readonly string[]>()
  const socket = createSocket('udp4')
  socket.on('message', (query, peer) => {
    if (query.length < 17) return
    // The question: length-prefixed labels up to a zero byte, then type and class.
    const labels: string[] = []
    let at = 12
    while (at < query.length && query[at] !== 0) {
      const length = query[at] ?? 0
      labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'))
      at += length + 1
    }
    const questionEnd = at + 5
    const type = query.readUInt16BE(at + 1)
    const found = names.get(labels.join('.').toLowerCase())
    const answers = type === 1 ? found ?? [] : []
    const header = Buffer.alloc(12)
    query.copy(header, 0, 0, 2)
    // A response, recursion desired and available; NXDOMAIN for a name the table lacks.
    header.writeUInt16BE(0x8180 | (found === undefined ? 3 : 0), 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(answers.length, 6)
    const records = answers.map(address => {
      const record = Buffer.alloc(16)
      record.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
      record.writeUInt16BE(1, 2)
      record.writeUInt16BE(1, 4)
      record.writeUInt32BE(1, 6)
      record.writeUInt16BE(4, 10)
      address.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i))
      return record
    })
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...records]), peer.port, peer.address)
  })
  await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => socket.close(() => resolve())))
  return {
    port: socket.address().port,
    set: (name, addresses) => { names.set(name.toLowerCase(), addresses) }
  }
}
