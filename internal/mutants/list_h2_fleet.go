package main

// Round 20, in the list_h2_*.go files, is not blind: the slips an outside
// reviewer tried, one after another, while sharpening the tests of
// crawler/http1, crawler/resp, crawler/frontier and crawler/fleet — each
// killed by the test written for it, or marked equivalent with why. They
// stay as a regression set; their ids start with h2/, and their why is
// the slip's own name.

func init() { mutants = append(mutants, h2fleet...) }

var h2fleet = []mutant{
	{round: 20, id: "h2/fleetdone/acquire-one-per-beat", file: "crawler/fleet/lease.go", old: "\t\tf.schedule()\n\t\tf.share() // and the next, if this process wants more", new: "\t\tf.schedule()", why: "h2/fleet/acquire-one-per-beat"},
	{round: 20, id: "h2/fleet/give-back-too-many", file: "crawler/fleet/lease.go", old: "\tfor ; len(working) > want; working = working[:len(working)-1] {", new: "\tfor ; len(working) >= want && len(working) > 0; working = working[:len(working)-1] {", why: "h2/fleet/give-back-too-many"},
	{round: 20, id: "h2/fleetdone/window-not-shared", file: "crawler/fleet/lease.go", old: "func (f *Fleet) window() int { return f.opts.Window/max(len(f.held), 1) + 1 }", new: "func (f *Fleet) window() int { return f.opts.Window + 1 }", why: "h2/fleet/window-not-shared"},
	{round: 20, id: "h2/fleet/release-before-settled", file: "crawler/fleet/lease.go", old: "len(l.taken) > 0 || len(l.settling) > 0 ||", new: "len(l.taken) > 0 ||", why: "h2/fleet/release-before-settled"},
	{round: 20, id: "h2/fleet/fenced-not-counted-on-forget", file: "crawler/fleet/lease.go", old: "\t\tf.Stats.Fenced += len(s.urls)", new: "", why: "h2/fleet/fenced-not-counted-on-forget"},
	{round: 20, id: "h2/fleet/drop-keeps-sending", file: "crawler/fleet/lease.go", old: "\tf.c.Drop(func(origin string) bool { return f.shardOfOrigin(origin) == l.shard })", new: "", why: "h2/fleet/drop-keeps-sending"},
	{round: 20, id: "h2/fleet/inherit-expired-robots", file: "crawler/fleet/lease.go", old: "\t\tif ok && err == nil && derr == nil && time.UnixMilli(until).After(time.Now()) {", new: "\t\tif ok && err == nil && derr == nil {", why: "h2/fleet/inherit-expired-robots"},
	{round: 20, id: "h2/fleet/inherit-no-holds", file: "crawler/fleet/lease.go", old: "\t\t\tf.c.HoldServer(holds.Elems[i].Str, time.UnixMilli(until))", new: "", why: "h2/fleet/inherit-no-holds"},
	{round: 20, id: "h2/fleet/checkend-ignores-taken", file: "crawler/fleet/lease.go", old: "\t\tif len(l.taken) > 0 || len(l.settling) > 0 {\n\t\t\treturn\n\t\t}", new: "\t\tif false && (len(l.taken) > 0 || len(l.settling) > 0) {\n\t\t\treturn\n\t\t}", why: "h2/fleet/checkend-ignores-taken", equivalent: "pending in Redis counts taken URLs, and unsent covers what is settled here and not yet in Redis"},
	{round: 20, id: "h2/fleet/reconnect-no-recheck", file: "crawler/fleet/fleet.go", old: "\t\t\tl.recheck = true", new: "\t\t\t_ = l", why: "h2/fleet/reconnect-no-recheck"},
	{round: 20, id: "h2/fleet/transient-busy-fatal", file: "crawler/fleet/fleet.go", old: "\"LOADING\": true, \"BUSY\": true,", new: "\"LOADING\": true,", why: "h2/fleet/transient-busy-fatal"},
	{round: 20, id: "h2/fleetdone/default-shards", file: "crawler/fleet/fleet.go", old: "\t\topts.Shards = 16", new: "\t\topts.Shards = 1", why: "h2/fleet/default-shards"},
	{round: 20, id: "h2/fleet/hungry-never-after-full-take", file: "crawler/fleet/step.go", old: "\t\t\tl.hungry = true // there may be more", new: "", why: "h2/fleet/hungry-never-after-full-take"},
	{round: 20, id: "h2/fleet/held-not-adopted", file: "crawler/fleet/step.go", old: "\t\tfor _, e := range res[4].Elems { // held, as the step began: this step's takes come after\n\t\t\tf.adopt(l, e.Str)\n\t\t}", new: "", why: "h2/fleet/held-not-adopted"},
	{round: 20, id: "h2/fleet/adopt-twice", file: "crawler/fleet/step.go", old: "\tif _, ok := l.taken[u]; ok {\n\t\treturn\n\t}", new: "", why: "h2/fleet/adopt-twice"},
	{round: 20, id: "h2/fleet/adopt-settling", file: "crawler/fleet/step.go", old: "\tif _, ok := l.settling[u]; ok {\n\t\treturn\n\t}", new: "", why: "h2/fleet/adopt-settling"},
	{round: 20, id: "h2/fleet/step-lost-lease-kept", file: "crawler/fleet/step.go", old: "\t\tif res[1].Int == 0 {\n\t\t\tf.drop(l, \"another process holds its lease\")\n\t\t\tcontinue\n\t\t}", new: "", why: "h2/fleet/step-lost-lease-kept"},
	{round: 20, id: "h2/fleet/settled-unknown-url", file: "crawler/fleet/step.go", old: "\te, ok := l.taken[u]\n\tif !ok {\n\t\treturn\n\t}", new: "\te := l.taken[u]", why: "h2/fleet/settled-unknown-url"},
	{round: 20, id: "h2/fleetdone/entry-fields-swapped", file: "crawler/fleet/step.go", old: "\treturn parts[2], int32(d), int32(r), true", new: "\treturn parts[2], int32(r), int32(d), true", why: "h2/fleet/entry-fields-swapped"},
	{round: 20, id: "h2/fleetdone/shard-of-url-with-path", file: "crawler/fleet/step.go", old: "\thost, _, _ := strings.Cut(rest, \"/\")", new: "\thost := rest", why: "h2/fleet/shard-of-url-with-path"},
	{round: 20, id: "h2/fleet/take-only-when-hungry", file: "crawler/fleet/step.go", old: "(l.hungry || room >= f.window()/2)", new: "l.hungry", why: "h2/fleet/take-only-when-hungry"},
	{round: 20, id: "h2/fleet/lua-renew-other-owner", file: "crawler/fleet/scripts.go", old: "  if got[k] == owner .. ' ' .. ARGV[i + 1] then", new: "  if got[k] then", why: "h2/fleet/lua-renew-other-owner"},
	{round: 20, id: "h2/fleet/lua-acquire-token-not-incr", file: "crawler/fleet/scripts.go", old: "    local token = redis.call('INCR', P .. 'fence:' .. n)", new: "    local token = tonumber(redis.call('GET', P .. 'fence:' .. n) or 1)", why: "h2/fleet/lua-acquire-token-not-incr"},
	{round: 20, id: "h2/fleetdone/lua-settle-not-in-pending", file: "crawler/fleet/scripts.go", old: "      delta = delta - n", new: "", why: "h2/fleet/lua-settle-not-in-pending"},
	{round: 20, id: "h2/fleetdone/lua-settle-tally-always", file: "crawler/fleet/scripts.go", old: "      if n == #grp.settle then", new: "      if true then", why: "h2/fleet/lua-settle-tally-always"},
	{round: 20, id: "h2/fleetdone/lua-take-from-back", file: "crawler/fleet/scripts.go", old: "'LMPOP', 1, P .. 'q:' .. grp.shard, 'LEFT'", new: "'LMPOP', 1, P .. 'q:' .. grp.shard, 'RIGHT'", why: "h2/fleet/lua-take-from-back"},
	{round: 20, id: "h2/fleet/lua-take-not-processing", file: "crawler/fleet/scripts.go", old: "        redis.call('SADD', p, unpack(r[2]))", new: "", why: "h2/fleet/lua-take-not-processing"},
	{round: 20, id: "h2/fleetdone/lua-link-to-front", file: "crawler/fleet/scripts.go", old: "redis.call('RPUSH', P .. 'q:' .. s, ...)", new: "redis.call('LPUSH', P .. 'q:' .. s, ...)", why: "h2/fleet/lua-link-to-front"},
	{round: 20, id: "h2/fleetdone/lua-page-cap-off-by-one", file: "crawler/fleet/scripts.go", old: "      if pageCap > 0 and hostN[h] >= pageCap then", new: "      if pageCap > 0 and hostN[h] > pageCap then", why: "h2/fleet/lua-page-cap-off-by-one"},
	{round: 20, id: "h2/fleetdone/lua-query-cap-off-by-one", file: "crawler/fleet/scripts.go", old: "      elseif p and queryCap > 0 and pathN[p] >= queryCap then", new: "      elseif p and queryCap > 0 and pathN[p] > queryCap then", why: "h2/fleet/lua-query-cap-off-by-one"},
	{round: 20, id: "h2/fleetdone/lua-release-hold-earlier-wins", file: "crawler/fleet/scripts.go", old: "      if til > was then", new: "      if true then", why: "h2/fleet/lua-release-hold-earlier-wins"},
	{round: 20, id: "h2/fleetdone/lua-release-keeps-lease", file: "crawler/fleet/scripts.go", old: "    redis.call('DEL', lease)", new: "", why: "h2/fleet/lua-release-keeps-lease"},
	{round: 20, id: "h2/fleetdone/lua-leave-stays-alive", file: "crawler/fleet/scripts.go", old: "if ARGV[4] == '1' then redis.call('ZREM', P .. 'procs', owner) end", new: "", why: "h2/fleet/lua-leave-stays-alive"},
	{round: 20, id: "h2/fleet/lua-step-again-no-held", file: "crawler/fleet/scripts.go", old: "mine and redis.call('SMEMBERS', P .. 'p:' .. grp.shard) or {}}", new: "{}}", why: "h2/fleet/lua-step-again-no-held"},
	{round: 20, id: "h2/fleet/lua-recheck-ignored", file: "crawler/fleet/scripts.go", old: "    if grp.recheck then res[5] = redis.call('SMEMBERS', p) end", new: "", why: "h2/fleet/lua-recheck-ignored"},
	{round: 20, id: "h2/fleetdone/lua-put-back-uncounted", file: "crawler/fleet/scripts.go", old: "    redis.call('HINCRBY', P .. 'tally', kind, #back)", new: "", why: "h2/fleet/lua-put-back-uncounted"},
	{round: 20, id: "h2/fleet/lua-seen-not-added", file: "crawler/fleet/scripts.go", old: "  if #new > 0 then inChunks(new, function(...) redis.call('SADD', P .. 'seen', ...) end) end", new: "", why: "h2/fleet/lua-seen-not-added"},
	{round: 20, id: "h2/fleetdone/lua-host-cap-counts-not-stored", file: "crawler/fleet/scripts.go", old: "    store(P .. 'pages', hosts, hostN)", new: "", why: "h2/fleet/lua-host-cap-counts-not-stored"},
}
