package fleet

import "loopkit/crawler/resp"

// The fleet's Lua scripts. Redis runs a script atomically: no other
// client's command comes between its reads and its writes. Each starts
// with "#!lua", which makes Redis (7.0 and later) check before running it
// that it may write: out of memory, a script is refused whole, rather
// than stopped half-way with some of its writes made.
//
// Every script first checks the crawl's instance, a random name the crawl
// was created with: a Redis that came back empty, or a crawl deleted and
// made again, answers GONE. Every script that acts on a shard checks that
// the caller holds the shard's lease with the token it was given
// (fencing): a process that lost its lease, however late it wakes up, can
// change nothing of the shard.
//
// A script builds its keys' names from the crawl's prefix (loopkit:ID:):
// fine on one Redis, not on a Redis Cluster, where each key must be named
// in KEYS and live in the script's slot.
//
// What a script costs Redis is the calls it makes, and most calls here
// take a whole batch: SMISMEMBER asks of every link of a turn at once
// whether it was seen, RPUSH queues every new link of a shard, SREM
// settles every page of a shard, LMPOP takes a window. A page costs the
// crawl a share of a few calls per turn, not a few calls of its own.

// putBack is Lua that acquire and release share: it moves shard n's
// processing set back to the front of its queue, for the next holder,
// counts them in the tally under kind, and says how many there were.
const putBack = `local function putBack(P, n, kind)
  local back = redis.call('SMEMBERS', P .. 'p:' .. n)
  for a = 1, #back, 1000 do
    redis.call('LPUSH', P .. 'q:' .. n, unpack(back, a, math.min(a + 999, #back)))
  end
  if #back > 0 then
    redis.call('DEL', P .. 'p:' .. n)
    redis.call('HINCRBY', P .. 'tally', kind, #back)
  end
  return #back
end`

// create makes the crawl, or finds it: if the crawl has no settings yet,
// they and its instance are stored. ARGV: prefix, settings, instance.
// Returns {settings, instance} as stored.
var create = resp.NewScript(`#!lua
local P = ARGV[1]
if redis.call('SET', P .. 'settings', ARGV[2], 'NX') then
  redis.call('SET', P .. 'instance', ARGV[3])
end
return redis.call('MGET', P .. 'settings', P .. 'instance')
`)

// beat is a process's heartbeat: it says the process is alive (by Redis's
// clock, so that processes' clocks need not agree), forgets the processes
// silent for a window, renews the leases the caller holds, and reads how
// much is left. ARGV: prefix, instance, owner, window (ms), lease (ms),
// then (shard, token) pairs. Returns {processes alive, pending (-1: not
// begun), then 1 or 0 per pair: renewed, or lost}.
var beat = resp.NewScript(`#!lua
local P, owner = ARGV[1], ARGV[3]
local names = {P .. 'instance', P .. 'pending'}
for i = 6, #ARGV, 2 do names[#names + 1] = P .. 'lease:' .. ARGV[i] end
local got = redis.call('MGET', unpack(names))
if got[1] ~= ARGV[2] then return redis.error_reply('GONE the crawl is no longer in Redis') end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', P .. 'procs', now, owner)
redis.call('ZREMRANGEBYSCORE', P .. 'procs', '-inf', now - tonumber(ARGV[4]))
local out = {redis.call('ZCARD', P .. 'procs'), tonumber(got[2]) or -1}
for i = 6, #ARGV, 2 do
  local k = 3 + (i - 6) / 2
  if got[k] == owner .. ' ' .. ARGV[i + 1] then
    redis.call('PEXPIRE', names[k], ARGV[5])
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out
`)

// acquire takes the lease of the first free shard among the candidates
// (free: no lease, or a lease of the caller's own that it no longer knows
// of, its acquire's reply lost): a new fencing token, and what its last
// holder took and never settled goes back to the front of its queue
// (at-least-once), counted in the tally as put_back: each may be fetched
// a second time. ARGV: prefix, instance, owner, lease (ms), then the
// candidate shards. Returns {shard, token, put back, the shard's robots
// hash, its hold hash} (HGETALL's flat lists), or nil if every candidate
// is held.
var acquire = resp.NewScript("#!lua\n" + putBack + `
local P, owner = ARGV[1], ARGV[3]
local names = {P .. 'instance'}
for i = 5, #ARGV do names[#names + 1] = P .. 'lease:' .. ARGV[i] end
local got = redis.call('MGET', unpack(names))
if got[1] ~= ARGV[2] then return redis.error_reply('GONE the crawl is no longer in Redis') end
for i = 5, #ARGV do
  local n, held = ARGV[i], got[i - 3]
  if not held or string.sub(held, 1, #owner + 1) == owner .. ' ' then
    local token = redis.call('INCR', P .. 'fence:' .. n)
    redis.call('SET', names[i - 3], owner .. ' ' .. token, 'PX', ARGV[4])
    local back = putBack(P, n, 'put_back')
    return {tonumber(n), token, back, redis.call('HGETALL', P .. 'robots:' .. n), redis.call('HGETALL', P .. 'hold:' .. n)}
  end
end
return false
`)

// step is a turn's worth of a process's writes, and its takes, in one
// command: the links it found, then per shard it holds the pages it
// settled, the politeness state it keeps, and URLs to take.
//
// A step runs once, however often it is sent: its number is kept under
// step:OWNER, and a step sent again after its reply was lost (which the
// client cannot tell from a step never run) is not run again. It answers
// instead with what the caller holds of each shard, so that URLs the lost
// reply carried are not stranded.
//
// Links: each new one (not in seen) goes to the back of its shard's queue
// and counts in pending, unless its host has had its share of the crawl
// (MaxPagesPerHost, counted in pages) or its path its share of queries
// (MaxQueryVariants, counted in variants): then it is only seen, and
// tallied as filtered. A link is in before the page that found it is
// settled (both in this step, the links first), so pending is zero only
// when nothing is left anywhere.
//
// Settling takes a page out of its shard's processing set, and out of
// pending; its record's kinds are tallied. Taking moves a window of URLs
// from the front of the queue to the processing set, where the next
// holder finds them if this one dies.
//
// A shard may also be read back (recheck): after a reconnect, a Redis
// that restarted from a file or failed over may have lost writes it had
// answered, and hold in a processing set a page its holder settled. The
// holder fetches again what it finds there and does not know of.
//
// ARGV: prefix, instance, owner, step number, how long the number is kept
// (ms), the host cap, the query cap (0: none), the number of links, then
// each link's (shard, entry, url); the number of shards, then each
// shard's: shard, token, URLs to take, recheck (1 or 0), entries settled
// (a count, then the entries), tallies (a count, then (kind, n) pairs),
// politeness kept (a count, then (hash, field, value) triples).
//
// Returns {1 if the step was run before, links new, links over a cap,
// pending after the step (-1: not read), then per shard {shard, 1 or 0
// (the lease is the caller's, or lost), pages settled, entries taken,
// entries held}}: entries held are the shard's processing set as the step
// began, for a recheck or a step run before.
var step = resp.NewScript(`#!lua
local P, owner, seq = ARGV[1], ARGV[3], ARGV[4]
local pageCap, queryCap = tonumber(ARGV[6]), tonumber(ARGV[7])
local nf = tonumber(ARGV[8])
local at = 8 + 3 * nf
local function arg()
  at = at + 1
  return ARGV[at]
end
local groups = {}
for g = 1, tonumber(arg()) do
  local grp = {settle = {}, kinds = {}, keep = {}}
  grp.shard = arg()
  grp.token = arg()
  grp.take = tonumber(arg())
  grp.recheck = arg() == '1'
  for k = 1, tonumber(arg()) do grp.settle[k] = arg() end
  for k = 1, tonumber(arg()) do
    local kind = arg()
    grp.kinds[k] = {kind, tonumber(arg())}
  end
  for k = 1, tonumber(arg()) do
    local hash = arg()
    local field = arg()
    grp.keep[k] = {hash, field, arg()}
  end
  groups[g] = grp
end

local names = {P .. 'instance', P .. 'step:' .. owner}
for g = 1, #groups do names[#names + 1] = P .. 'lease:' .. groups[g].shard end
local got = redis.call('MGET', unpack(names))
if got[1] ~= ARGV[2] then return redis.error_reply('GONE the crawl is no longer in Redis') end
if got[2] == seq then
  local out = {1, 0, 0, -1}
  for g = 1, #groups do
    local grp, mine = groups[g], got[g + 2] == owner .. ' ' .. groups[g].token
    out[#out + 1] = {tonumber(grp.shard), mine and 1 or 0, 0, {}, mine and redis.call('SMEMBERS', P .. 'p:' .. grp.shard) or {}}
  end
  return out
end
redis.call('SET', names[2], seq, 'PX', ARGV[5])

local function inChunks(list, fn)
  for a = 1, #list, 1000 do fn(unpack(list, a, math.min(a + 999, #list))) end
end
local tally, delta = {}, 0
local function count(kind, n) tally[kind] = (tally[kind] or 0) + n end

-- The links.
local added, capped = 0, 0
if nf > 0 then
  -- A process sends each URL once (its own seen set), so a batch has no
  -- duplicates of its own.
  local urls = {}
  for k = 1, nf do urls[k] = ARGV[8 + 3 * k] end
  local fresh, new = {}, {}
  for a = 1, nf, 1000 do
    local m = redis.call('SMISMEMBER', P .. 'seen', unpack(urls, a, math.min(a + 999, nf)))
    for k = 1, #m do
      if m[k] == 0 then
        fresh[#fresh + 1] = a + k - 1
        new[#new + 1] = urls[a + k - 1]
      end
    end
  end
  if #new > 0 then inChunks(new, function(...) redis.call('SADD', P .. 'seen', ...) end) end
  -- The caps: a host's URLs, a path's queries, for the whole crawl.
  local admitted = fresh
  if #fresh > 0 and (pageCap > 0 or queryCap > 0) then
    local hostOf, pathOf, hosts, paths, hostN, pathN = {}, {}, {}, {}, {}, {}
    for _, k in ipairs(fresh) do
      local u = urls[k]
      if pageCap > 0 then
        local h = string.match(u, '^[^/]*//[^/?#]*')
        hostOf[k] = h
        if hostN[h] == nil then hostN[h] = 0; hosts[#hosts + 1] = h end
      end
      if queryCap > 0 and string.find(u, '?', 1, true) then
        pathOf[k] = string.match(u, '^[^?]*')
        if pathN[pathOf[k]] == nil then pathN[pathOf[k]] = 0; paths[#paths + 1] = pathOf[k] end
      end
    end
    local function load(key, list, n)
      for a = 1, #list, 1000 do
        local v = redis.call('HMGET', key, unpack(list, a, math.min(a + 999, #list)))
        for k = 1, #v do n[list[a + k - 1]] = tonumber(v[k]) or 0 end
      end
    end
    load(P .. 'pages', hosts, hostN)
    load(P .. 'variants', paths, pathN)
    admitted = {}
    local pagesOver, queriesOver = 0, 0
    for _, k in ipairs(fresh) do
      local h, p = hostOf[k], pathOf[k]
      if pageCap > 0 and hostN[h] >= pageCap then
        pagesOver = pagesOver + 1
      elseif p and queryCap > 0 and pathN[p] >= queryCap then
        queriesOver = queriesOver + 1
      else
        if pageCap > 0 then hostN[h] = hostN[h] + 1 end
        if p and queryCap > 0 then pathN[p] = pathN[p] + 1 end
        admitted[#admitted + 1] = k
      end
    end
    local function store(key, list, n)
      local flat = {}
      for _, f in ipairs(list) do flat[#flat + 1] = f; flat[#flat + 1] = n[f] end
      inChunks(flat, function(...) redis.call('HSET', key, ...) end)
    end
    store(P .. 'pages', hosts, hostN)
    store(P .. 'variants', paths, pathN)
    if pagesOver > 0 then count('filtered:max_pages_per_host', pagesOver) end
    if queriesOver > 0 then count('filtered:query_variants', queriesOver) end
    capped = pagesOver + queriesOver
  end
  local byShard, shards = {}, {}
  for _, k in ipairs(admitted) do
    local s = ARGV[6 + 3 * k]
    if not byShard[s] then byShard[s] = {}; shards[#shards + 1] = s end
    local list = byShard[s]
    list[#list + 1] = ARGV[7 + 3 * k]
  end
  for _, s in ipairs(shards) do
    inChunks(byShard[s], function(...) redis.call('RPUSH', P .. 'q:' .. s, ...) end)
  end
  added = #admitted
  delta = added
end

-- The shards.
local out = {0, added, capped, -1}
for g = 1, #groups do
  local grp = groups[g]
  local res = {tonumber(grp.shard), 0, 0, {}, {}}
  if got[g + 2] == owner .. ' ' .. grp.token then
    res[2] = 1
    local p = P .. 'p:' .. grp.shard
    if grp.recheck then res[5] = redis.call('SMEMBERS', p) end
    if #grp.settle > 0 then
      local n = 0
      inChunks(grp.settle, function(...) n = n + redis.call('SREM', p, ...) end)
      res[3] = n
      delta = delta - n
      if n == #grp.settle then
        for _, kc in ipairs(grp.kinds) do count(kc[1], kc[2]) end
      else
        count('settled_not_taken', #grp.settle - n)
      end
    end
    for _, kv in ipairs(grp.keep) do redis.call('HSET', P .. kv[1] .. ':' .. grp.shard, kv[2], kv[3]) end
    if grp.take > 0 then
      local r = redis.call('LMPOP', 1, P .. 'q:' .. grp.shard, 'LEFT', 'COUNT', grp.take)
      if r then
        res[4] = r[2]
        redis.call('SADD', p, unpack(r[2]))
      end
    end
  end
  out[#out + 1] = res
end
if nf > 0 or delta ~= 0 then out[4] = redis.call('INCRBY', P .. 'pending', delta) end
for kind, n in pairs(tally) do redis.call('HINCRBY', P .. 'tally', kind, n) end
return out
`)

// release gives leases back: what was taken and not settled goes back to
// the front of the queue for the next holder, counted as given_back, and
// the servers' next starts are kept with the shard, so that the next
// holder keeps their spacing (a later hold already kept stays). With
// leave, the process also leaves the fleet. ARGV: prefix, instance,
// owner, leave (0 or 1), then per shard: shard, token, the number of
// holds, then (authority, until in ms) pairs. Returns how many leases it
// gave back.
var release = resp.NewScript("#!lua\n" + putBack + `
local P, owner = ARGV[1], ARGV[3]
if redis.call('GET', P .. 'instance') ~= ARGV[2] then return redis.error_reply('GONE the crawl is no longer in Redis') end
local i, given = 5, 0
while i <= #ARGV do
  local n, token, nh = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local lease = P .. 'lease:' .. n
  if redis.call('GET', lease) == owner .. ' ' .. token then
    for k = 1, nh do
      local field, til = ARGV[i + 1 + 2 * k], tonumber(ARGV[i + 2 + 2 * k])
      local was = tonumber(redis.call('HGET', P .. 'hold:' .. n, field)) or 0
      if til > was then redis.call('HSET', P .. 'hold:' .. n, field, til) end
    end
    putBack(P, n, 'given_back')
    redis.call('DEL', lease)
    given = given + 1
  end
  i = i + 3 + 2 * nh
end
if ARGV[4] == '1' then redis.call('ZREM', P .. 'procs', owner) end
return given
`)

// scripts are loaded on every connection (resp.Options.Scripts), so that
// none runs late through its EVAL fallback after a Redis restart.
var scripts = []*resp.Script{create, beat, acquire, step, release}
