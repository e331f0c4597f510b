import t from 'tap'
import { currentEntity, mergeCurrent, readRouteOf } from '../../src/dialect/merge.js'
import type { RouteDefinition } from '../../src/core/route-definition.js'
import type { CoreRequest } from '../../src/core/exchange.js'

const route = (method: string, url: string, answer: RouteDefinition['answer'], operationId: string | null = 'op'): RouteDefinition =>
  ({ method, url, schema: {}, operationId, exposeHead: false, adminOnly: false, writes: method !== 'GET', answer }) as RouteDefinition

t.test('a partial update keeps what it leaves out, nested objects merged, the body\'s own values winning', async t => {
  const current = { email: 'a@example.com', phone: '+14155550100', address: { line1: '1 A St', city: 'X', state: 'CA' } }
  t.same(mergeCurrent(current, { email: 'b@example.com', address: { city: 'Y' } }), { email: 'b@example.com', phone: '+14155550100', address: { line1: '1 A St', city: 'Y', state: 'CA' } })
  t.same(mergeCurrent(undefined, { email: 'b@example.com' }), { email: 'b@example.com' }, 'nothing read: the body as sent')
  t.equal(mergeCurrent(current, 'text'), 'text', 'a body that is no object is left to validation')
})

t.test('the current entity is the GET on the same path; an answer that is no success is none', async t => {
  const write = route('PUT', '/c', () => ({ status: 200 }))
  const read = route('GET', '/c', () => Promise.resolve({ status: 200, body: { email: 'a@example.com' } }))
  t.equal(readRouteOf([write, route('GET', '/c', () => ({ status: 200 }), null), read], write), read, 'a control-plane route is not the read')
  t.equal(readRouteOf([write], write), undefined)
  const request = {} as CoreRequest
  t.same(await currentEntity(read, request), { email: 'a@example.com' })
  t.equal(await currentEntity(route('GET', '/c', () => ({ status: 401, text: '{}' })), request), undefined)
})
