import t from 'tap'
import { accessAdvice, accessFacts, mountIsReadOnly } from '../../src/world/stores/state-access.js'

// What a state folder this process may not write is told to do: its mount, owner, mode; never a reset.

const base = { dir: '/data', file: '/data/baas-mock.db', uid: 1000, readOnlyMount: false }

t.test('the cause is named with the command that fixes it, and a reset is never advised', async t => {
  const advice = [
    accessAdvice({ ...base, readOnlyMount: true, dirStat: { uid: 1000, mode: 0o40755 }, fileStat: undefined }),
    accessAdvice({ ...base, dirStat: { uid: 0, mode: 0o40755 }, fileStat: { uid: 0, mode: 0o100644 } }),
    accessAdvice({ ...base, dirStat: { uid: 1000, mode: 0o40555 }, fileStat: { uid: 1000, mode: 0o100444 } }),
    accessAdvice({ ...base, dirStat: { uid: 1000, mode: 0o40755 }, fileStat: undefined }),
    accessAdvice({ ...base, uid: undefined, dirStat: undefined, fileStat: undefined })
  ]
  t.match(advice[0], /\/data is on a read-only mount: mount it read-write/)
  t.match(advice[1], /the folder is owned by uid 0 \(mode 755\) and this process runs as uid 1000: chown -R 1000 \/data, or run as uid 0; \/data\/baas-mock\.db is owned by uid 0/)
  t.match(advice[2], /the folder's mode is 555: chmod u\+rwx \/data; \/data\/baas-mock\.db's mode is 444: chmod u\+rw/)
  t.match(advice[3], /check the owner, mode and mount of \/data/, 'nothing found wrong: what to check')
  t.match(advice[4], /check the owner, mode and mount/)
  for (const line of advice) t.notMatch(line, /reset/)
})

t.test('a read-only mount is found in mountinfo: the longest mount point holding the folder decides', async t => {
  const mountinfo = [
    '22 1 0:21 / / rw,relatime - overlay overlay rw',
    '30 22 0:30 / /data ro,relatime - ext4 /dev/sdb rw',
    '31 22 0:31 / /data/inner rw,relatime - ext4 /dev/sdc rw',
    '32 22 0:32 / /my\\040state ro - ext4 /dev/sdd rw',
    'short line'
  ].join('\n')
  t.equal(mountIsReadOnly(mountinfo, '/data'), true)
  t.equal(mountIsReadOnly(mountinfo, '/data/state'), true)
  t.equal(mountIsReadOnly(mountinfo, '/data/inner/x'), false)
  t.equal(mountIsReadOnly(mountinfo, '/database'), false, 'a mount point is a whole path segment')
  t.equal(mountIsReadOnly(mountinfo, '/my state'), true)
  t.equal(mountIsReadOnly('', '/data'), false)
})

t.test('the facts of a real folder', async t => {
  const dir = t.testdir({})
  const facts = accessFacts(dir, `${dir}/baas-mock.db`)
  t.equal(facts.fileStat, undefined)
  t.equal(facts.dirStat?.uid, process.getuid?.())
  t.equal(facts.readOnlyMount, false)
})
