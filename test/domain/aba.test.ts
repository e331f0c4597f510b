import t from 'tap'
import { isValidRoutingNumber, routingNumberProblem } from '../../src/domain/aba.js'

t.test('real routing numbers pass the 3-7-1 checksum', async t => {
  for (const rn of ['021000021', '011000015', '071000013', '111000025', '121000358', '026009593']) {
    t.ok(isValidRoutingNumber(rn), rn)
    t.equal(routingNumberProblem(rn), undefined)
  }
})

t.test('one wrong or swapped digit fails the checksum', async t => {
  for (const rn of ['021000022', '021000012', '120000021', '011000016']) {
    t.notOk(isValidRoutingNumber(rn), rn)
    t.match(routingNumberProblem(rn), /checksum/)
  }
})

t.test('anything but nine digits is refused before the checksum', async t => {
  for (const rn of ['', '02100002', '0210000210', '02100002a', ' 21000021', '021-00002']) {
    t.notOk(isValidRoutingNumber(rn), JSON.stringify(rn))
    t.equal(routingNumberProblem(rn), 'must be exactly 9 digits')
  }
})
