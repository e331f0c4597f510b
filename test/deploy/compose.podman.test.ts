import { execFile, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'

// compose.yaml and deploy/nginx.conf as docs/guides/replicas.md runs them, under podman-compose
// (no Docker engine and no image registry in CI): the guide's own lines, `docker compose` read as
// `podman-compose`, on stand-ins for redis:7-bookworm and nginx:1.27-bookworm made from Debian's
// packages and the image the container check built from the Dockerfile (test/deploy/compose-images.sh).
// It takes a minute or two (the first time, building the stand-ins, a quarter of an hour) and
// publishes port 4010 as the recipe does, so it runs when asked, one run at a time on a machine:
//   BAAS_MOCK_COMPOSE=1 npx tap --disable-coverage --timeout 1800 test/deploy/compose.podman.test.ts
// (.ci/run does so after the container check, whose image it uses).

const repo = new URL('../../', import.meta.url).pathname
const W = process.env.W ?? '/tmp/compose-check'
const containerCheckW = process.env.CONTAINER_CHECK_W ?? '/tmp/container-check'
const podmanEnv = { ...process.env, CONTAINERS_STORAGE_CONF: join(W, 'storage.conf'), CONTAINERS_CONF: join(W, 'containers.conf') }
/** compose's project: the folder's name, as compose takes it. */
const project = 'baas-mock'
const REPLICAS = [`${project}_mock_1`, `${project}_mock_2`]
const dir = join(W, project)

const found = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0

/** Why this cannot run here, or false when it can. */
function missing (): string | false {
  if (process.env.BAAS_MOCK_COMPOSE !== '1') return 'runs with BAAS_MOCK_COMPOSE=1 (.ci/run sets it after the container check): it takes minutes and publishes port 4010'
  if (process.getuid?.() !== 0) return 'needs root (podman with runc, and debootstrap for the stand-in images)'
  for (const command of ['podman', 'podman-compose', 'buildah', 'debootstrap']) {
    if (!found(command)) return `${command} is not installed (apt-get install podman podman-compose buildah runc debootstrap)`
  }
  const image = spawnSync('podman', ['image', 'exists', 'localhost/container-check:latest'], {
    env: { ...process.env, CONTAINERS_STORAGE_CONF: join(containerCheckW, 'storage.conf'), CONTAINERS_CONF: join(containerCheckW, 'containers.conf') }
  })
  if (image.status !== 0) return `no localhost/container-check:latest in ${containerCheckW}: ../shared/ci/container-check.sh builds the Dockerfile's image`
  return false
}
const skip = missing()

const exec = promisify(execFile)
/** A shell line run in the project's folder with this test's podman store; its output. */
const sh = async (line: string): Promise<string> => {
  const { stdout, stderr } = await exec('bash', ['-o', 'pipefail', '-c', line], { cwd: dir, env: podmanEnv, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 180_000 })
  return stdout + stderr
}

/** The lines of the guide's compose recipe, `docker compose` as `podman-compose`. */
function recipe (): string[] {
  const guide = readFileSync(new URL('../../docs/guides/replicas.md', import.meta.url), 'utf8')
  const block = /## Docker Compose[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? ''
  return block.split('\n').filter(line => line.trim() !== '').map(line => line.replace(/^docker compose /, 'podman-compose '))
}

const base = 'http://127.0.0.1:4010'
const read = async (): Promise<number> => {
  const res = await fetch(`${base}/baas/customers`, { headers: { authorization: 'Bearer tok_maya' }, signal: AbortSignal.timeout(10_000) })
  await res.arrayBuffer()
  return res.status
}
const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Reads until the stack has settled: a read answers 200, every replica is ready, and nginx has
 * reached each at its current address since its access log held `since` entries (a restarted
 * replica has a new one, which nginx learns within its resolver's 2 s). At most two minutes.
 */
async function settled (since: number): Promise<boolean> {
  const until = Date.now() + 120_000
  while (Date.now() < until) {
    if (await read().catch(() => 0) === 200 && await everyReplicaReached(since)) return true
    await sleep(250)
  }
  return false
}

async function everyReplicaReached (since: number): Promise<boolean> {
  const reached = new Set((await upstreams()).slice(since))
  for (const replica of REPLICAS) {
    if (await readyz(replica) !== '200' || !reached.has(`${await address(replica)}:4010`)) return false
  }
  return true
}

/** The statuses of `count` reads through the load balancer, one after the other. */
async function statuses (count: number): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < count; i++) seen.push(await read().catch(() => 0))
  return seen
}

/** The replicas' addresses nginx reached, from its access log (the field before the last). */
async function upstreams (): Promise<string[]> {
  const log = await sh(`podman logs ${project}_lb_1`)
  return [...log.matchAll(/"([0-9.:, ]+)" "[0-9, -]*"$/gm)].flatMap(match => (match[1] ?? '').split(', '))
}

/** The access log's lines of requests nginx answered other than 200: which replicas it tried, and what each answered. */
const failedInLog = async (): Promise<string> =>
  (await sh(`podman logs ${project}_lb_1`)).split('\n').filter(line => /" [0-9]{3} /.test(line) && !/" 200 /.test(line)).join('\n')

/** What GET /readyz answers inside the container ('503', '200'), or '' while it does not listen yet. */
const readyz = async (container: string): Promise<string> =>
  (await sh(`podman exec ${container} node -e "fetch('http://127.0.0.1:4010/readyz').then(r => console.log(r.status), () => {})"`).catch(() => '')).trim()

const address = async (container: string): Promise<string> =>
  (await sh(`podman inspect ${container} --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}'`)).trim()

t.test('the compose recipe under podman: up, a replica restarted, Redis restarted, a rolling restart, a replica not ready, down', { skip, timeout: 1_800_000 }, async t => {
  const images = await exec('bash', [join(repo, 'test/deploy/compose-images.sh')], { env: { ...process.env, W, CONTAINER_CHECK_W: containerCheckW }, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 1_500_000 })
  if (images.stderr.trim() !== '') t.comment(images.stderr.trim())
  rmSync(dir, { recursive: true, force: true })
  // compose.yaml and deploy/ as a user has them, in a folder of their own: the guide's .env goes there, not into the repository.
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(repo, 'compose.yaml'), join(dir, 'compose.yaml'))
  cpSync(join(repo, 'deploy'), join(dir, 'deploy'), { recursive: true })
  const cutOff = `${project}_mock_cut_off`
  const cleanUp = async (): Promise<void> => {
    await sh(`podman rm -f ${cutOff} >/dev/null 2>&1; podman-compose down -v >/dev/null 2>&1; podman network rm -f ${project}_default >/dev/null 2>&1; true`)
  }
  await cleanUp()
  t.teardown(cleanUp)

  const lines = recipe()
  const [env, up, lock, check, restart, down] = lines
  t.match(lines, [/^echo .* > \.env/, /^podman-compose up --build -d/, /^curl .*\/lock/, /^curl .*__mock\/state/, /^podman-compose restart mock/, /^podman-compose down/], 'the guide\'s recipe: .env, up, a lock, a read, restart, down')
  const token = /MOCK_ADMIN_TOKEN=([^'\s]+)/.exec(env ?? '')?.[1] ?? 'none'
  await sh(env ?? 'false')
  // The image is the container check's build of the Dockerfile, already in the store: `--build` would build it again.
  await sh((up ?? 'false').replace(' --build', ''))
  const up200 = await settled(0)
  t.ok(up200, 'the API answers 200 through nginx on port 4010')
  if (!up200) t.comment(await sh('podman ps -a; podman-compose logs lb 2>&1 | tail -n 20'))
  t.same(await statuses(8), [200, 200, 200, 200, 200, 200, 200, 200], 'every read answers 200')
  const replicas = [await address(`${project}_mock_1`), await address(`${project}_mock_2`)]
  const reached = new Set(await upstreams())
  t.ok(replicas.every(ip => reached.has(`${ip}:4010`)), `both replicas (${replicas.join(', ')}) served, round robin`)
  await sh(lock ?? 'false')
  t.match(await sh(check ?? 'false'), /"status":"LOCKED"/, 'the guide\'s check reads the card locked')

  // The guide's `restart mock`: every replica stops and starts again.
  let since = (await upstreams()).length
  await sh(restart ?? 'false')
  t.ok(await settled(since), 'after `restart mock`, the stack settles: both replicas ready, and reached by nginx at their new addresses')
  if (!t.same((await statuses(8)).filter(status => status !== 200), [], 'then no read fails (no 502)')) t.comment(await failedInLog())
  t.match(await sh(check ?? 'false'), /"status":"LOCKED"/, 'and the session is kept')

  // Redis restarted: the replicas answer 503 while it is away, then carry on; its append-only file keeps the sessions.
  since = (await upstreams()).length
  await sh('podman-compose restart redis')
  t.ok(await settled(since), 'after `restart redis`, the stack settles')
  if (!t.same((await statuses(8)).filter(status => status !== 200), [], 'then no read fails')) t.comment(await failedInLog())
  t.match(await sh(check ?? 'false'), /"status":"LOCKED"/, 'and the session survived Redis\'s restart')

  // A rolling restart: one replica at a time, the next once the first is ready again, while a client keeps reading.
  const during: Array<number | string> = []
  let rolling = true
  const client = (async () => {
    while (rolling) {
      during.push(await read().catch((error: Error) => `${error.name}: ${String((error.cause as Error | undefined)?.message ?? error.message)}`))
      await sleep(100)
    }
  })()
  // The next replica goes down only once nginx reaches the restarted one at its new address, as
  // an orchestrator waits for a new endpoint: until then nginx may know only the old, dead address
  // (for up to 2 s, its resolver's valid=2s), and with the other replica down too, no one answers.
  const rejoined: boolean[] = []
  since = (await upstreams()).length
  for (const replica of REPLICAS) {
    const logged = (await upstreams()).length
    await sh(`podman restart ${replica}`)
    for (let i = 0; i < 120 && await readyz(replica) !== '200'; i++) await sleep(500)
    const now = `${await address(replica)}:4010`
    let reached = false
    for (let i = 0; i < 60 && !(reached = (await upstreams()).slice(logged).includes(now)); i++) await sleep(500)
    rejoined.push(reached)
  }
  rolling = false
  await client
  t.same(rejoined, [true, true], 'each restarted replica was ready and reached by nginx at its new address before the next went down')
  // A stopped replica refuses connections; one restarted has a new address, and the old one, which
  // nginx may hold for 2 s more, answers nothing: nginx gives it up after its 2 s connect time-out.
  t.ok(during.length > 0, `a client read ${during.length} times during the rolling restart`)
  t.same(during.filter(status => status !== 200), [], 'and every read answered 200: nginx went on to the replica that was up')
  if (during.some(status => status !== 200)) t.comment(await failedInLog())
  t.ok(await settled(since), 'after the rolling restart, the stack settles')
  if (!t.same((await statuses(8)).filter(status => status !== 200), [], 'then no read fails')) t.comment(await failedInLog())

  // A third replica under the same name that cannot reach Redis: it starts, and answers 503 (not ready).
  await sh(`podman run -d --name ${cutOff} --network ${project}_default --network-alias mock -e MOCK_STORE=redis://no-such-redis:6379/0 -e MOCK_ADMIN_TOKEN=${token} localhost/baas-mock:latest`)
  let ready = ''
  for (let i = 0; i < 120 && (ready = await readyz(cutOff)) === ''; i++) await sleep(500)
  t.equal(ready, '503', 'the cut-off replica says it is not ready')
  await sleep(3000) // nginx asks the DNS again every 2 s: the third address joins the round robin
  const before = (await upstreams()).length
  const cut = await address(cutOff)
  // nginx picks where to start among the three addresses: read until it has tried the cut-off one.
  const seen: number[] = []
  let tried = false
  while (seen.length < 12 || (!tried && seen.length < 60)) {
    seen.push(await read().catch(() => 0))
    if (seen.length % 6 === 0) tried = (await upstreams()).slice(before).includes(`${cut}:4010`)
  }
  t.same(seen.filter(status => status !== 200), [], `no read fails on the replica that is not ready (${seen.length} reads)`)
  t.ok(tried, `nginx tried it (${cut}) and went on to another`)
  await sh(`podman rm -f ${cutOff}`)

  await sh(down ?? 'false')
  t.equal((await sh(`podman ps -a --filter label=io.podman.compose.project=${project} --format '{{.Names}}'`)).trim(), '', '`down` removes every container')
  t.equal(await read().catch(() => 0), 0, 'and nothing answers on port 4010')
})
