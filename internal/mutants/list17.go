package main

// Round 17, written by an outside reviewer who had read the production
// code, doc comments and docs of crawler/fleet, and none of its tests:
// 16 mutants of crawler/fleet, five of them in its Lua scripts (run
// against a real Redis) and eleven in its Go. Each breaks a promise a
// doc comment, docs/fleet.md or the report makes, mostly on paths a test
// writer may not think of: error paths, Finish after a failure, a second
// outage, a process with no shards, a slow Redis, a lost lease with state
// on its way, an owner's name, big batches, a late holder's release.
//
// It was written after round 16's fleet survivors had tests. Its first
// run (-own, with the e2e tests): 8 of 16 killed (50 %), three of its
// five Lua mutants among the survivors. Each of the eight has a test
// since, seen failing with it.

func init() { mutants = append(mutants, round17...) }

var round17 = []mutant{
	// Go
	{round: 17, id: "fleet/finish-gone-ignored", file: "crawler/fleet/fleet.go",
		old: "\t\treturn f.goneError()\n",
		new: "\t\treturn nil\n",
		why: "a crawl gone from Redis by the final release ends as a normal crawl, not with ErrGone"},
	{round: 17, id: "fleet/refused-write-retried", file: "crawler/fleet/fleet.go",
		old: "case errors.As(err, &rerr) && !transient[rerr.Code()]:",
		new: "case errors.As(err, &rerr) && rerr.Code() == \"OOM\":",
		why: "a write refused for another reason than memory (a read-only replica, a script error) is retried forever instead of stopping the process with Redis's words"},
	{round: 17, id: "fleet/owner-not-random", file: "crawler/fleet/fleet.go",
		old: "rand.IntN(1<<16)",
		new: "rand.IntN(1)",
		why: "two processes with the same host and pid (two fleets in one binary, containers) get the same default owner, and take each other's leases as their own"},
	{round: 17, id: "fleet/second-outage-unsaid", file: "crawler/fleet/fleet.go",
		old: "\t\tf.lost = false\n",
		new: "",
		why: "after Redis comes back once, a second loss of Redis is never said, nor its return"},
	{round: 17, id: "fleet/politeness-diff-reversed", file: "crawler/fleet/join.go",
		old: "theirs.Politeness.Differences(mine.Politeness)",
		new: "mine.Politeness.Differences(theirs.Politeness)",
		why: "a process refused for its politeness is told the crawl's value as its own and its own as the crawl's"},
	{round: 17, id: "fleet/beat-gone-unheard", file: "crawler/fleet/lease.go",
		old: "\t\t\tf.judge(err) // Redis unreachable: the leases' own timers decide\n",
		new: "\t\t\t_ = err\n",
		why: "a process that holds no shard and sends no step (more processes than shards) never stops on a crawl gone from Redis: it waits forever"},
	{round: 17, id: "fleet/release-while-settling", file: "crawler/fleet/lease.go",
		old: "len(l.settling) > 0 || f.settles[l] != nil",
		new: "f.settles[l] != nil",
		why: "a shard given back while its settles are on their way is released first: its pages go back to the queue and are fetched twice, though a give-back promises nothing is"},
	{round: 17, id: "fleet/forget-keeps-keeps", file: "crawler/fleet/lease.go",
		old: "\tdelete(f.keeps, l)\n",
		new: "",
		why: "a lease lost while its robots.txt or Retry-After was on its way leaves writes that are never sent: the process never ends"},
	{round: 17, id: "fleet/hold-wrong-shard", file: "crawler/fleet/step.go",
		old: "f.keep(f.shardOfHost(authority)",
		new: "f.keep(f.shardOfOrigin(authority)",
		why: "a server's Retry-After is kept with the wrong shard (or dropped): its next holder does not honour it"},
	{round: 17, id: "fleet/entry-drops-redirects", file: "crawler/fleet/step.go",
		old: "+ strconv.Itoa(int(redirects)) +",
		new: "+ \"0\" +",
		why: "a queued URL forgets how many redirects led to it: redirect chains through the fleet are followed past the crawl's limit"},
	{round: 17, id: "fleet/step-fenced-not-dropped", file: "crawler/fleet/step.go",
		old: "\t\tif res[1].Int == 0 {\n\t\t\tf.drop(l, \"another process holds its lease\")\n\t\t\tcontinue",
		new: "\t\tif res[1].Int == 0 {\n\t\t\tcontinue",
		why: "a step told the lease is another's does not stop working the shard: the process keeps sending to its hosts beside the new holder until its next beat"},

	// Lua
	{round: 17, id: "fleet/lua-beat-no-refresh", file: "crawler/fleet/scripts.go",
		old: "redis.call('ZADD', P .. 'procs', now, owner)",
		new: "redis.call('ZADD', P .. 'procs', 'NX', now, owner)",
		why: "a heartbeat no longer refreshes the process's liveness: live processes are counted dead every other beat, and shards churn between them"},
	{round: 17, id: "fleet/lua-putback-chunk-short", file: "crawler/fleet/scripts.go",
		old: "unpack(back, a, math.min(a + 999, #back))",
		new: "unpack(back, a, math.min(a + 998, #back))",
		why: "a processing set of 1000 URLs or more put back loses one URL per thousand: pages never fetched, and pending never reaches zero"},
	{round: 17, id: "fleet/lua-variants-not-loaded", file: "crawler/fleet/scripts.go",
		old: "    load(P .. 'variants', paths, pathN)\n",
		new: "",
		why: "MaxQueryVariants counts a path's queries per step, not for the whole crawl: queries found across pages pass the cap"},
	{round: 17, id: "fleet/lua-release-hold-overwrites", file: "crawler/fleet/scripts.go",
		old: "if til > was then",
		new: "if til ~= was then",
		why: "a release overwrites a later Retry-After kept with the shard with an earlier next start: the next holder comes back too soon"},
	{round: 17, id: "fleet/lua-release-unfenced", file: "crawler/fleet/scripts.go",
		old: "if redis.call('GET', lease) == owner .. ' ' .. token then",
		new: "if redis.call('EXISTS', lease) == 1 then",
		why: "a process that lost its lease and finishes late releases the new holder's lease and puts back its processing set"},
}
