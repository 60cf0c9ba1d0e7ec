import { LuaScript } from './lua-script';

/**
 * The purge fence. A worker submits a job only after `claim` succeeds; a purge records what it covers
 * (every job numbered up to the phone's sequence, a set of ids, a broadcast) in the same Redis, and
 * both run as scripts, so they are ordered: a job claimed first was submitted before the purge (not
 * covered); a job claimed after sees the fence and is never sent. A claimed job stays claimed across
 * retries (its submission may have reached the network; the connector deduplicates on its id).
 *
 * claim: KEYS job hash, fence:all, fence:ids, fence:bcast; ARGV job id, seq, broadcast id or '', now.
 * Returns 1 (submit), 0 (purged), -1 (the job no longer exists).
 */
export const CLAIM = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], 'mapi_claimed') == 1 then return 1 end
if tonumber(ARGV[2]) <= tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then return 0 end
if ARGV[3] ~= '' and redis.call('SISMEMBER', KEYS[4], ARGV[3]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'mapi_claimed', ARGV[4])
return 1
`);

/** The phone answered "disconnected": nothing reached the network, so the job is unsubmitted again. */
export const RELEASE = new LuaScript(`return redis.call('HDEL', KEYS[1], 'mapi_claimed')`);

/**
 * Removes the given jobs from the states where no worker holds them. Sorted sets (prioritized,
 * delayed) cost O(log n) per job; the wait and paused lists are scanned only when not empty (jobs are
 * added with a priority, so they stay near-empty). Ids not removed (a worker holds them, or unknown)
 * are fenced when ARGV[3] is '1'.
 * KEYS prioritized, delayed, wait, paused, fence:ids; ARGV job key prefix, fence ttl ms, fence?, ids...
 * Returns the number of jobs removed.
 */
export const REMOVE_UNSENT = new LuaScript(`
local waitLen = redis.call('LLEN', KEYS[3])
local pausedLen = redis.call('LLEN', KEYS[4])
local removed = 0
local fenced = 0
for i = 4, #ARGV do
  local id = ARGV[i]
  local n = redis.call('ZREM', KEYS[1], id) + redis.call('ZREM', KEYS[2], id)
  if n == 0 and waitLen > 0 then n = redis.call('LREM', KEYS[3], 0, id) end
  if n == 0 and pausedLen > 0 then n = redis.call('LREM', KEYS[4], 0, id) end
  if n > 0 then
    local k = ARGV[1] .. id
    redis.call('DEL', k, k .. ':logs')
    removed = removed + 1
  elseif ARGV[3] == '1' then
    redis.call('SADD', KEYS[5], id)
    fenced = fenced + 1
  end
end
if fenced > 0 then redis.call('PEXPIRE', KEYS[5], ARGV[2]) end
return removed
`);

/**
 * Purge of everything, O(1): fences every job numbered so far, then renames the phone's unsent
 * states away (new jobs start fresh keys). The renamed keys are listed in the trash set and their job
 * hashes deleted in small batches afterwards (DELETE_TRASH), so Redis is never blocked for long.
 * KEYS prioritized, delayed, wait, paused, fence:all, seq, trash; ARGV trash key base.
 */
export const PURGE_ALL = new LuaScript(`
redis.call('SET', KEYS[5], redis.call('GET', KEYS[6]) or '0')
local moved = 0
for i = 1, 4 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local t = ARGV[1] .. ':' .. i
    redis.call('RENAME', KEYS[i], t)
    redis.call('SADD', KEYS[7], t)
    moved = moved + 1
  end
end
return moved
`);

/**
 * Deletes up to ARGV[2] job hashes named in one renamed-away key; drops the key from the trash set
 * when it is empty. KEYS trash key, trash set; ARGV job key prefix, batch size. Returns how many remain.
 */
export const DELETE_TRASH = new LuaScript(`
local t = redis.call('TYPE', KEYS[1])['ok']
local ids = {}
if t == 'zset' then
  local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[2])
  for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
elseif t == 'list' then
  ids = redis.call('LPOP', KEYS[1], ARGV[2]) or {}
end
for i = 1, #ids do
  local k = ARGV[1] .. ids[i]
  redis.call('DEL', k, k .. ':logs')
end
local left = 0
if t == 'zset' then left = redis.call('ZCARD', KEYS[1]) elseif t == 'list' then left = redis.call('LLEN', KEYS[1]) end
if left == 0 then redis.call('SREM', KEYS[2], KEYS[1]) end
return left
`);
