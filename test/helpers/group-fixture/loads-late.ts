import t from 'tap'

// A test file that takes a while to load: its test must still run after the other's (test/test-groups.test.ts).
await new Promise(resolve => setTimeout(resolve, 200))
t.test('the late file\'s test', async t => { t.pass() })
