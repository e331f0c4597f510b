import { Redis } from 'ioredis'

/** A Redis made full, to be emptied and then given back its old limit. */
export interface RedisControl { empty: () => Promise<void>; restore: () => Promise<void> }

const FILLER = 'baas-demo-life:filler:'
const MB = 1024 * 1024

/**
 * Fills the Redis at `url` as a demo's Redis fills: 4 MB of keys, then `maxmemory` 1 MB below what
 * it holds with `noeviction` (the policy the replicas guide asks for), so that every write that
 * needs memory is refused (OOM command not allowed) while reads and deletes go on. (A limit set
 * first and keys added until one is refused leaves it just under the limit: the refused key's
 * own buffer counted, and is freed.)
 */
export async function fillRedis (url: string): Promise<RedisControl> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 })
  const keys = 16
  const value = 'x'.repeat(MB / 4)
  for (let i = 0; i < keys; i++) await redis.set(`${FILLER}${i}`, value)
  const used = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0)
  await redis.config('SET', 'maxmemory-policy', 'noeviction')
  await redis.config('SET', 'maxmemory', String(used - MB))
  return {
    empty: async () => { await redis.del(...Array.from({ length: keys }, (_, i) => `${FILLER}${i}`)) },
    restore: async () => {
      await redis.config('SET', 'maxmemory', '0')
      await redis.quit()
    }
  }
}
