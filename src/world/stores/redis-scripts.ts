import { ROW_LOGS } from './store.js'

/**
 * The Lua scripts of the Redis store (redis.ts). A script runs atomically in Redis: nothing else
 * runs between its commands, so a save checks the version and writes in one step, whatever the
 * number of replicas. Redis does not roll a script back when a command in it fails, so each one
 * checks everything it can before its first write.
 *
 * Keys, after the prefix (`baas-mock:` unless --store-prefix says otherwise):
 *   session:<id>  hash: version, format, createdMs, lastSeenMs, pinned (0/1), <log>Last per row log
 *                 (journalLast, eventsLast: the last row id written), part:<name> (JSON each)
 *   journal:<id>  stream: one entry per journal row, its id `<row id>-0`, field `r` the row's JSON
 *   events:<id>   stream: one entry per webhook event, its id `<event's number>-0`, field `r` the
 *                 row's JSON (format 2; format 1 kept them inside part:webhooks, read still)
 *   claim:<id>    string, for a moment (it expires, PX): the replica whose save lost to another's goes first next
 *   sessions      sorted set: every session, scored by when it was last seen (epoch ms)
 *   pinned        set: the pinned sessions
 *   watch:<id>    hash, while a dashboard follows the session's live feed: a field per replica watching,
 *                 the whole expiring unless those replicas renew it (redis-feed.ts)
 * A session's hash and streams expire after the idle timeout (PEXPIRE on every save and load),
 * unless it is `default` or pinned; the sorted set forgets an expired session at the next save's
 * sweep or list. The streams are the row logs of store.ts (ROW_LOGS), in that order wherever the
 * scripts take one key or argument per log: a log that grows by a row per request is appended to
 * and trimmed, never rewritten.
 */

/** Takes a session's keys and its place in the index out; a helper of the scripts below. */
const DROP = `
local function drop(prefix, id)
  redis.call('DEL', prefix .. 'session:' .. id, prefix .. 'claim:' .. id${ROW_LOGS.map(log => `, prefix .. '${log}:' .. id`).join('')})
  redis.call('ZREM', prefix .. 'sessions', id)
  redis.call('SREM', prefix .. 'pinned', id)
end
`

/**
 * The replica holding a session's claim, or false. Every claim a replica makes expires (SET … PX,
 * a second or so): one without an expiry was not made by a live replica (a write by hand, a
 * restore of a dump, another program), and would hold every load and save up for good; it is
 * taken out instead.
 */
const CLAIM_OF = `
local function claimOf(key)
  local claimant = redis.call('GET', key)
  if claimant and redis.call('PTTL', key) == -1 then
    redis.call('DEL', key)
    return false
  end
  return claimant
end
`

/**
 * KEYS: session hash, sessions index, pinned set, claim, a stream per row log.
 * ARGV: id, base version, format, created ms, last seen ms, pinned (0/1), idle ms, max sessions,
 * prefix, replica token, part count, (name, json) per part, then per row log: its name, from (rows
 * below it go), row count, (row id, json) per row.
 * Answers {0} when the stored version is not the base version, or another replica claimed the
 * next save (nothing written); else {1, evicted ids...}: the sessions the cap pushed out.
 */
export const SAVE_SCRIPT = `${DROP}${CLAIM_OF}
local id = ARGV[1]
local claimant = claimOf(KEYS[4])
if claimant and claimant ~= ARGV[10] then return {0} end
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[2]) then return {0} end
-- The first write, and one Redis refuses when full (OOM): a script that wrote something first (a
-- DEL, an XTRIM, which a full Redis allows) would be let through whole, past maxmemory.
redis.call('HSET', KEYS[1], 'version', stored + 1)
local lastSeen = tonumber(ARGV[5])
local pinned = ARGV[6] == '1'
local idle = tonumber(ARGV[7])
local max = tonumber(ARGV[8])
local prefix = ARGV[9]
local fields = {'version', stored + 1, 'format', ARGV[3], 'createdMs', ARGV[4], 'lastSeenMs', lastSeen, 'pinned', ARGV[6]}
local i = 12
for _ = 1, tonumber(ARGV[11]) do
  fields[#fields + 1] = 'part:' .. ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
  i = i + 2
end
for k = 5, #KEYS do
  local lastField = ARGV[i] .. 'Last'
  local from = ARGV[i + 1]
  local rowCount = tonumber(ARGV[i + 2])
  i = i + 3
  -- A stream takes only ids above the last it ever made: rows at or below it were written already.
  -- A new session starts a new stream (one left by a session that expired unevenly would refuse its ids).
  local lastRow = tonumber(redis.call('HGET', KEYS[1], lastField) or '0')
  if stored == 0 then redis.call('DEL', KEYS[k]) end
  for _ = 1, rowCount do
    local rowId = tonumber(ARGV[i])
    if rowId > lastRow then
      redis.call('XADD', KEYS[k], rowId .. '-0', 'r', ARGV[i + 1])
      lastRow = rowId
    end
    i = i + 2
  end
  fields[#fields + 1] = lastField
  fields[#fields + 1] = lastRow
  redis.call('XTRIM', KEYS[k], 'MINID', from)
end
redis.call('HSET', KEYS[1], unpack(fields))
if claimant then redis.call('DEL', KEYS[4]) end
if id ~= 'default' and not pinned then
  redis.call('PEXPIRE', KEYS[1], idle)
  for k = 5, #KEYS do redis.call('PEXPIRE', KEYS[k], idle) end
  redis.call('SREM', KEYS[3], id)
else
  redis.call('PERSIST', KEYS[1])
  for k = 5, #KEYS do redis.call('PERSIST', KEYS[k]) end
  if pinned then redis.call('SADD', KEYS[3], id) else redis.call('SREM', KEYS[3], id) end
end
redis.call('ZADD', KEYS[2], 'GT', lastSeen, id)

-- Sessions idle past the timeout (their keys expired, or are about to): out of the index, a bounded batch per save.
for _, other in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (lastSeen - idle), 'LIMIT', 0, 64)) do
  if other ~= id and other ~= 'default' and redis.call('SISMEMBER', KEYS[3], other) == 0 then drop(prefix, other) end
end
-- The cap, across every replica: pinned sessions do not count, and default, the pinned and this one never go.
local evicted = {1}
local pinnedCount = redis.call('SCARD', KEYS[3])
local over = redis.call('ZCARD', KEYS[2]) - pinnedCount - max
if over > 0 then
  for _, other in ipairs(redis.call('ZRANGE', KEYS[2], 0, over + pinnedCount + 1)) do
    if over <= 0 then break end
    if other ~= id and other ~= 'default' and redis.call('SISMEMBER', KEYS[3], other) == 0 then
      drop(prefix, other)
      evicted[#evicted + 1] = other
      over = over - 1
    end
  end
end
return evicted
`

/**
 * KEYS: session hash, sessions index, claim, a stream per row log, the session's watchers (last).
 * ARGV: id, the version the caller holds ('' for none), now ms ('' to leave it untouched), idle ms,
 * replica token, claim ('1': the caller's save just lost, it goes first next), claim ms, then per
 * row log the first row id to send ('-' for all).
 * Answers {'claimed', ms left} when another replica claimed the next save (nothing else done);
 * nil when there is no such session; {version, watched} when the caller holds that version
 * already; else {version, the hash as field/value pairs, then each stream's entries, watched}.
 * `watched` is 1 while some replica's dashboard follows the session's live feed (see redis-feed.ts),
 * else 0. A load with `now` counts as a use of the session: its last-seen time moves, its keys'
 * time to live starts again. Those writes (and the claim) are a read's side effects: refused (a
 * full Redis, maxmemory with noeviction answers OOM to the first write of a script), they are
 * left out and the read goes on; every answer but 'claimed' and nil then ends with Redis's error
 * (else '') after `watched`.
 */
export const LOAD_SCRIPT = `${CLAIM_OF}
local claimant = claimOf(KEYS[3])
if claimant and claimant ~= ARGV[5] then return {'claimed', redis.call('PTTL', KEYS[3])} end
local refused = ''
-- pcall: an error is answered as a value, not raised; after the first refusal nothing more is tried.
local function write (...)
  if refused ~= '' then return end
  local answer = redis.pcall(...)
  if type(answer) == 'table' and answer.err then refused = answer.err end
end
if ARGV[6] == '1' then write('SET', KEYS[3], ARGV[5], 'PX', ARGV[7]) end
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return nil end
local streams = #KEYS - 1
if ARGV[3] ~= '' then
  local now = tonumber(ARGV[3])
  if tonumber(redis.call('HGET', KEYS[1], 'lastSeenMs') or '0') < now then write('HSET', KEYS[1], 'lastSeenMs', now) end
  write('ZADD', KEYS[2], 'GT', now, ARGV[1])
  if ARGV[1] ~= 'default' and redis.call('HGET', KEYS[1], 'pinned') ~= '1' then
    write('PEXPIRE', KEYS[1], ARGV[4])
    for k = 4, streams do write('PEXPIRE', KEYS[k], ARGV[4]) end
  end
end
local watched = redis.call('EXISTS', KEYS[#KEYS])
if version == ARGV[2] then return {version, watched, refused} end
local reply = {version, redis.call('HGETALL', KEYS[1])}
for k = 4, streams do reply[#reply + 1] = redis.call('XRANGE', KEYS[k], ARGV[k + 4], '+') end
reply[#reply + 1] = watched
reply[#reply + 1] = refused
return reply
`

/**
 * KEYS: sessions index, pinned set. ARGV: prefix.
 * Answers {id, createdMs, lastSeenMs, pinned} per session, least recently seen first; takes the
 * ones whose keys expired out of the index on the way.
 */
export const LIST_SCRIPT = `
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local meta = redis.call('HMGET', ARGV[1] .. 'session:' .. id, 'createdMs', 'lastSeenMs', 'pinned')
  if meta[1] then
    out[#out + 1] = id
    out[#out + 1] = meta[1]
    out[#out + 1] = meta[2]
    out[#out + 1] = meta[3]
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('SREM', KEYS[2], id)
  end
end
return out
`

/** KEYS: claim. ARGV: replica token. Ends the replica's claim, if it still holds it. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`

/** KEYS: session hash. ARGV: prefix, id. Answers 1 when there was such a session, else 0. */
export const DELETE_SCRIPT = `${DROP}
local existed = redis.call('EXISTS', KEYS[1])
drop(ARGV[1], ARGV[2])
return existed
`

/**
 * KEYS: sessions index, pinned set. ARGV: prefix, idle since ms.
 * Drops the sessions last seen before the cutoff but default and pinned ones; answers their ids.
 */
export const EXPIRE_SCRIPT = `${DROP}
local dropped = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2])) do
  if id ~= 'default' and redis.call('SISMEMBER', KEYS[2], id) == 0 then
    drop(ARGV[1], id)
    dropped[#dropped + 1] = id
  end
end
return dropped
`
