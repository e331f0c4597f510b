import t from 'tap'

// A test file whose root teardown lets tap's root test end itself once idle (test/test-groups.test.ts).
t.teardown(() => {})
t.test('the first file\'s test', async t => { t.pass() })
