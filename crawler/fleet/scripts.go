package fleet

import "loopkit/crawler/resp"

// The fleet's Lua scripts. Redis runs a script atomically: no other
// client's command comes between its reads and its writes. Every script
// that acts on a shard first checks that the caller still holds the
// shard's lease with the token it was given (fencing): a process that lost
// its lease, however late it wakes up, can no longer change the shard.
// A script names its shard's keys in KEYS; found also writes the queues of
// the shards its links belong to, whose names it builds from a prefix —
// fine on one Redis, not on a Redis Cluster, where each key must be named.

// found adds a batch of links: for each (shard, entry, url), if the URL
// was never seen, its entry goes to the back of its shard's queue. One
// command per batch, whatever its size. KEYS: seen, pending. ARGV: the
// key prefix, then the triples. Returns how many were new.
var found = resp.NewScript(`
local n = 0
for i = 2, #ARGV, 3 do
  if redis.call('SADD', KEYS[1], ARGV[i+2]) == 1 then
    redis.call('RPUSH', ARGV[1] .. 'q:' .. ARGV[i], ARGV[i+1])
    n = n + 1
  end
end
if n > 0 then redis.call('INCRBY', KEYS[2], n) end
return n
`)

// acquire takes the lease of the first free shard among the candidates:
// a new fencing token, and the entries its last holder took and never
// settled go back to the front of its queue (at-least-once), counted in
// the tally as put_back: each may be fetched a second time. KEYS: none
// (it builds each shard's key names from the prefix). ARGV: the key
// prefix, owner, ttl in ms, then the candidate shards. Returns {shard,
// token, entries put back}, or nil if every candidate is held.
var acquire = resp.NewScript(`
for i = 4, #ARGV do
  local n = ARGV[i]
  local lease = ARGV[1] .. 'lease:' .. n
  if redis.call('EXISTS', lease) == 0 then
    local token = redis.call('INCR', ARGV[1] .. 'fence:' .. n)
    redis.call('SET', lease, ARGV[2] .. ' ' .. token, 'PX', ARGV[3])
    local back = 0
    while redis.call('LMOVE', ARGV[1] .. 'p:' .. n, ARGV[1] .. 'q:' .. n, 'RIGHT', 'LEFT') do back = back + 1 end
    if back > 0 then redis.call('HINCRBY', ARGV[1] .. 'tally', 'put_back', back) end
    return {tonumber(n), token, back}
  end
end
return false
`)

// renew extends the lease, if the caller holds it. KEYS: lease. ARGV:
// owner, token, ttl in ms. Returns 1, or 0 if the lease was lost.
var renew = resp.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`)

// take moves up to max entries from the front of the queue to the
// processing list: taken, not lost if the taker dies. KEYS: lease, queue,
// processing. ARGV: owner, token, max. Returns the entries.
var take = resp.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return redis.error_reply('FENCED lease lost') end
local out = {}
for i = 1, tonumber(ARGV[3]) do
  local e = redis.call('LMOVE', KEYS[2], KEYS[3], 'LEFT', 'RIGHT')
  if not e then break end
  out[#out+1] = e
end
return out
`)

// settle says taken entries are done: each leaves the processing list and
// the pending count, its URL joins the done set (a URL done twice is
// counted as a duplicate), and its record's kind and detail are tallied
// (ok and ok_bytes, http_error and http_error:404, ...). KEYS: lease,
// processing, pending, done, tally. ARGV: owner, token, then (entry, url,
// kind, detail) quadruples; an empty kind tallies nothing (a URL dropped
// unfetched), an empty detail no detail.
var settle = resp.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return redis.error_reply('FENCED lease lost') end
local n = 0
for i = 3, #ARGV, 4 do
  if redis.call('LREM', KEYS[2], 1, ARGV[i]) == 1 then
    n = n + 1
    if redis.call('SADD', KEYS[4], ARGV[i+1]) == 0 then redis.call('HINCRBY', KEYS[5], 'duplicates', 1) end
    if ARGV[i+2] ~= '' then redis.call('HINCRBY', KEYS[5], ARGV[i+2], 1) end
    if ARGV[i+3] ~= '' then redis.call('HINCRBY', KEYS[5], ARGV[i+3], 1) end
  end
end
if n > 0 then redis.call('DECRBY', KEYS[3], n) end
return n
`)

// release gives a lease back: what was taken and not settled goes back to
// the front of the queue for the next holder, counted as put_back (its
// requests were cancelled, but one may have reached the server). KEYS:
// lease, queue, processing, tally. ARGV: owner, token.
var release = resp.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return 0 end
local back = 0
while redis.call('LMOVE', KEYS[3], KEYS[2], 'RIGHT', 'LEFT') do back = back + 1 end
if back > 0 then redis.call('HINCRBY', KEYS[4], 'put_back', back) end
redis.call('DEL', KEYS[1])
return 1
`)

// keep stores a shard's politeness state — a host's robots.txt, a
// server's Retry-After — where its next holder finds it. KEYS: lease,
// hash. ARGV: owner, token, field, value.
var keep = resp.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return redis.error_reply('FENCED lease lost') end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
return 1
`)

// scripts are loaded on every connection (resp.Options.Scripts), so that
// none runs late through its EVAL fallback after a Redis restart.
var scripts = []*resp.Script{found, acquire, renew, take, settle, release, keep}
