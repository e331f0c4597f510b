import t from 'tap'
import { loadDialects } from '../../src/fixtures/dialect.js'
import { FixtureError, loadScenarios } from '../../src/fixtures/loader.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { dialectWorld } from './world.js'

function problemsOf (dir: string): string[] {
  try {
    loadDialects(dir, loadScenarios(dir).keys())
    return []
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error
    return error.problems.map(p => `${p.file} at ${p.pointer}: ${p.rule}`)
  }
}

t.test('the bundled world speaks the mock\'s own: no dialect, nothing to do', async t => {
  const dialects = loadDialects(BUNDLED_FIXTURES, loadScenarios(BUNDLED_FIXTURES).keys())
  t.equal(dialects.any, false)
  t.equal(dialects.for('default'), undefined)
})

t.test('the suite\'s dialect loads for every scenario; a scenario\'s file replaces shapes one by one', async t => {
  const dir = dialectWorld({
    'scenarios/every-card-state/dialect.yaml': 'shapes:\n  Customer:\n    fields: { /name: /firstName }\n'
  })
  const dialects = loadDialects(dir, loadScenarios(dir).keys())
  t.equal(dialects.any, true)
  const base = dialects.for('default')
  t.equal(base?.shapes?.DebitCard?.envelope, '/data')
  const scenario = dialects.for('every-card-state')
  t.same(scenario?.shapes?.Customer, { fields: { '/name': '/firstName' } }, 'the scenario\'s Customer replaces the base one')
  t.equal(scenario?.shapes?.DebitCard?.envelope, '/data', 'the base\'s other shapes stay')
  t.same(scenario?.entities?.DebitCard?.card_maya_virtual, { '/attributes/nickname': 'Groceries' })
  t.same(dialects.warnings, [], 'every enum value the suite maps is mapped')
})

t.test('every problem of the dialect files is listed at once, with file and pointer', async t => {
  const dir = dialectWorld({
    'dialect.yaml': [
      'shapes:',
      '  DebitCard:',
      '    fields:',
      '      /id: /identifier',
      '      /state: { from: /status, values: { ACTIVE: on, LOKCED: off } }',
      '      /kind: { from: /form, shape: Nowhere }',
      '      /label: { template: "{{#if value.id}}" }',
      '      /both: { from: /id, const: 1 }',
      '      /a: /id',
      '      /a/b: /id',
      'requests:',
      '  lockCard: { fields: { /x: /y } }',
      '  updateCustomer: { fields: { /mail: /emial } }',
      '  nope: { fields: {} }',
      'entities:',
      '  Card: {}',
      '  DebitCard: { card_maya_virtual: { /id: x } }'
    ].join('\n'),
    'scenarios/new-customer/dialect.yaml': 'shapes:\n  Customer:\n    fields: { /name: /givenName }\n'
  }, false)
  const problems = problemsOf(dir)
  t.equal(problems.length, 12, problems.join('\n'))
  for (const expected of [
    'dialect.yaml at /shapes/DebitCard/fields/~1a~1b: lies inside /a',
    "dialect.yaml at /shapes/DebitCard/fields/~1id: maps to nothing in the mock's DebitCard (it has no field /identifier)",
    "dialect.yaml at /shapes/DebitCard/fields/~1state/values/LOKCED: LOKCED is not a value of the mock's DebitCard /status",
    'dialect.yaml at /shapes/DebitCard/fields/~1kind/shape: names no shape',
    'dialect.yaml at /shapes/DebitCard/fields/~1label/template: template does not compile',
    'dialect.yaml at /shapes/DebitCard/fields/~1both: give one of from, const or template',
    'dialect.yaml at /requests/lockCard: lockCard takes no body',
    "dialect.yaml at /requests/updateCustomer/fields/~1mail: maps to nothing in the mock's CustomerUpdate (it has no field /emial)",
    'dialect.yaml at /requests/nope: is not an operation id',
    'dialect.yaml at /entities/Card: names no shape',
    'dialect.yaml at /entities/DebitCard/card_maya_virtual/~1id: shape DebitCard gives /id from the mock',
    "scenarios/new-customer/dialect.yaml at /shapes/Customer/fields/~1name: maps to nothing in the mock's Customer (it has no field /givenName)"
  ]) t.ok(problems.some(p => p.startsWith(expected)), expected)
})

t.test('a file that breaks the schema says where; an unmapped enum value is a warning', async t => {
  t.match(problemsOf(dialectWorld({ 'dialect.yaml': 'shapes:\n  DebitCard:\n    fields: { id: /id }\n' }, false)),
    [/dialect.yaml at \/shapes\/DebitCard\/fields\/id: is not a valid name/])
  t.match(problemsOf(dialectWorld({ 'dialect.yaml': 'shapez: {}\n', 'dialect.json': '{}' }, false)), [/dialect.json at : duplicates dialect.yaml/])
  const dir = dialectWorld({ 'dialect.yaml': 'shapes:\n  DebitCard:\n    fields: { /state: { from: /status, values: { LOCKED: frozen } } }\n  Spare: { fields: {} }\n' }, false)
  const dialects = loadDialects(dir, loadScenarios(dir).keys())
  t.match(dialects.warnings.map(w => `${w.pointer}: ${w.rule}`), [
    /\/shapes\/DebitCard\/fields\/~1state\/values: leaves PENDING_ACTIVATION, ACTIVE, CLOSED of the mock's DebitCard \/status unmapped/,
    /\/shapes\/Spare: is neither one of the mock's schemas/
  ])
})
