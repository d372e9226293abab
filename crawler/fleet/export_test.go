package fleet

import "loopkit/crawler/resp"

// Scripts are the fleet's scripts by name, for the tests that break
// their replies on the wire.
var Scripts = map[string]*resp.Script{"create": create, "beat": beat, "acquire": acquire, "step": step, "release": release}

// ShardOfHost says which shard f puts host's URLs in.
func (f *Fleet) ShardOfHost(host string) int { return f.shardOfHost(host) }
