import { connect } from 'node:net'
import t from 'tap'
import { SERVER_LIMITS } from '../../src/config/limits.js'
import { buildTestApp } from '../helpers/app.js'

/** Sends raw bytes and reads until the server closes: what Node's HTTP parser refuses never reaches inject. */
async function rawExchange (port: number, bytes: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes))
    let answer = ''
    socket.on('data', chunk => { answer += chunk.toString() })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

t.test('requests the HTTP parser refuses still get problem+json, shaped like every other error', async t => {
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port

  const huge = await rawExchange(port, `GET /baas/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
  const [head = '', body = ''] = huge.split('\r\n\r\n')
  t.match(head, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
  t.match(head, /\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/)
  t.match(JSON.parse(body), { status: 431, code: 'headers_too_large', title: 'Request Header Fields Too Large', detail: `The request line and headers are larger than ${SERVER_LIMITS.maxHeaderBytes} bytes.` })

  const garbage = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n')
  t.match(garbage, /^HTTP\/1\.1 400 Bad Request\r\n/)
  t.match(JSON.parse(garbage.split('\r\n\r\n')[1] ?? ''), { status: 400, code: 'malformed_request', title: 'Bad Request' })
})
