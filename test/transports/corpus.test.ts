import t from 'tap'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createMock, startServer } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { CORPUS, type CorpusRequest } from './corpus.js'

// Links the mock hands out name the public URL, not whichever host a transport saw.
const OPTIONS = { seed: 7, now: '2027-01-10T12:00:00Z', publicUrl: 'http://mock.test' }

/** Paths no route of the mock answers: under MSW they are the next handler's. */
// Under MSW, a path outside the mock's routes is the app's next handler's; one under /__mock (reserved) is the mock's to refuse.
const FALLS_THROUGH = new Set(['an unknown route'])

interface Seen { name: string; status: number; contentType: string | null; location: string | null; replayed: string | null; body: string }

type Send = (path: string, init: RequestInit) => Promise<Response>

/** Runs the corpus in order through one transport, reading what a client would see. */
async function run (send: Send): Promise<Seen[]> {
  const seen: Seen[] = []
  for (const request of CORPUS) {
    const response = await send(request.path, init(request))
    seen.push({ name: request.name, status: response.status, contentType: response.headers.get('content-type'), location: response.headers.get('location'), replayed: response.headers.get('idempotent-replayed'), body: await response.text() })
  }
  return seen
}

function init (request: CorpusRequest): RequestInit {
  const headers: Record<string, string> = { ...request.headers }
  let body: string | undefined
  if (request.raw !== undefined) {
    body = request.raw.text
    headers['content-type'] = request.raw.contentType
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body)
    headers['content-type'] = 'application/json'
  }
  // A redirect is an answer to compare, not one to follow.
  return { method: request.method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) }
}

t.test('the HTTP server, mock.fetch and MSW give the same status, content type and bytes for every request of the corpus', async t => {
  const server = await startServer(OPTIONS)
  t.teardown(() => server.close())
  const overHttp = await run((path, requestInit) => fetch(server.url + path, requestInit))

  const mock = await createMock(OPTIONS)
  t.teardown(() => mock.close())
  const inProcess = await run((path, requestInit) => mock.fetch(path, requestInit))

  // What the mock does not answer falls through to the app's own handlers; this one stands for them.
  const theAppsOwn = http.all('https://bank.example/*', () => HttpResponse.text('not the mock', { status: 299 }))
  const msw = setupServer(...createHandlers({ baseUrl: 'https://bank.example', ...OPTIONS }), theAppsOwn)
  msw.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => msw.close())
  const throughMsw = await run((path, requestInit) => fetch('https://bank.example' + path, requestInit))

  t.equal(overHttp.length, CORPUS.length)
  // A corpus of only errors would prove little: it holds successes of every operation too.
  t.ok(overHttp.filter(seen => seen.status < 300).length >= 25, 'most operations succeed somewhere in the corpus')
  t.same(overHttp.filter(seen => seen.replayed === 'true').map(seen => seen.name), ['retry it with the same key (a replay)', 'the refusal again'], 'the replays are marked')
  for (const [i, expected] of overHttp.entries()) {
    t.same(inProcess[i], expected, `mock.fetch: ${expected.name}`)
    if (FALLS_THROUGH.has(expected.name)) t.same(throughMsw[i], { ...expected, status: 299, contentType: 'text/plain', replayed: null, body: 'not the mock' }, 'MSW: a path the mock does not answer reaches the next handler')
    else t.same(throughMsw[i], expected, `MSW: ${expected.name}`)
  }
})
