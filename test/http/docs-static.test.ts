import { request } from 'node:http'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'

interface Answer { status: number; contentType: string | undefined; body: string }

/**
 * GET with the path sent exactly as written: inject and fetch resolve `%2e%2e` segments before
 * sending (as browsers do), so only a raw client shows what a probe reaches.
 */
async function getAsIs (port: number, path: string): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, res => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body }))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('/docs: a missing file is 404, a path climbing out of the folder is 400 path_traversal', async t => {
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port

  const css = await getAsIs(port, '/docs/static/swagger-ui.css')
  t.equal(css.status, 200, 'the UI\'s own files are served')

  for (const path of ['/docs/static/nonexistent.js', '/docs/static/a..b.js']) {
    const missing = await getAsIs(port, path)
    t.equal(missing.status, 404, path)
    t.match(missing.contentType, /^application\/problem\+json/)
    t.match(JSON.parse(missing.body), { status: 404, code: 'not_found', instance: path })
  }
  const head = await app.inject({ method: 'HEAD', url: '/docs/static/nonexistent.js' })
  t.equal(head.statusCode, 404, 'HEAD too')

  for (const path of ['/docs/static/%2e%2e/%2e%2e/package.json', '/docs/static/%2E%2E', '/docs/static/..%2fpackage.json', '/docs/static/..%5cpackage.json', '/docs/static/../../package.json']) {
    const probe = await getAsIs(port, path)
    t.equal(probe.status, 400, path)
    t.match(probe.contentType, /^application\/problem\+json/)
    t.match(JSON.parse(probe.body), { status: 400, code: 'path_traversal' })
    t.notMatch(probe.body, '"name":"baas-mock"', 'and no file from outside')
  }

  const wrongMethod = await app.inject({ method: 'POST', url: '/docs/static/swagger-ui.css' })
  t.match(wrongMethod.json(), { status: 405, code: 'method_not_allowed', detail: '/docs/static/swagger-ui.css answers GET, not POST.' }, 'a wrong method is still 405')
})
