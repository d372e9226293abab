package main

func init() { mutants = append(mutants, h2frontier2...) }

var h2frontier2 = []mutant{
	{round: 20, id: "h2/frontier2/succeeded-not-placed", file: "crawler/frontier/server.go", old: "\tj.Host.server.pace.succeeded()\n\tf.placeServer(j.Host.server) // its limit may have grown", new: "\tj.Host.server.pace.succeeded()", why: "h2/frontier2/succeeded-not-placed"},
	{round: 20, id: "h2/frontier2/setdelay-lowers", file: "crawler/frontier/pace.go", old: "func (p *pace) setDelay(d time.Duration) { p.delay = max(p.delay, d) }", new: "func (p *pace) setDelay(d time.Duration) { p.delay = d }", why: "h2/frontier2/setdelay-lowers"},
	{round: 20, id: "h2/frontier2/requeued-gate-open", file: "crawler/frontier/retry.go", old: "\t\th.gate = gateWaiting // neither handed out nor open: the queue waits behind it", new: "\t\th.gate = gateOpen // neither handed out nor open: the queue waits behind it", why: "h2/frontier2/requeued-gate-open"},
	{round: 20, id: "h2/frontier2/stop-twice-puts-back-twice", file: "crawler/frontier/frontier.go", old: "\tif f.stopped {\n\t\treturn\n\t}\n\tf.stopped = true", new: "\tf.stopped = true", why: "h2/frontier2/stop-twice-puts-back-twice", equivalent: "the first Stop emptied the delayed heap: a second puts back nothing"},
	{round: 20, id: "h2/frontier2/open-until-ignored", file: "crawler/frontier/host.go", old: "\th.gate, h.gateUntil = gateOpen, until", new: "\th.gate = gateOpen", why: "h2/frontier2/open-until-ignored"},
	{round: 20, id: "h2/frontier2/host-seq-constant", file: "crawler/frontier/frontier.go", old: "\t\th = &Host{origin: origin, seq: len(f.hosts), heapIndex: -1, gate: gateOpen}", new: "\t\th = &Host{origin: origin, seq: 0, heapIndex: -1, gate: gateOpen}", why: "h2/frontier2/host-seq-constant"},
	{round: 20, id: "h2/frontier2/failed-hold-from-zero", file: "crawler/frontier/server.go", old: "\tf.HoldUntil(j.Host, now+s.pace.gap())\n\tf.placeServer(s)\n\treturn true", new: "\tf.HoldUntil(j.Host, s.pace.gap())\n\tf.placeServer(s)\n\treturn true", why: "h2/frontier2/failed-hold-from-zero"},
	{round: 20, id: "h2/frontier2/running-not-decremented", file: "crawler/frontier/frontier.go", old: "\ts.inFlight--\n\tf.running--", new: "\ts.inFlight--", why: "h2/frontier2/running-not-decremented"},
	{round: 20, id: "h2/frontier2/wake-when-stopped", file: "crawler/frontier/frontier.go", old: "func (f *Frontier) Wake() (time.Duration, bool) {\n\tif f.stopped {\n\t\treturn 0, false\n\t}", new: "func (f *Frontier) Wake() (time.Duration, bool) {", why: "h2/frontier2/wake-when-stopped"},
	{round: 20, id: "h2/frontier2/next-after-stop", file: "crawler/frontier/frontier.go", old: "func (f *Frontier) Next(now time.Duration) (*Job, bool) {\n\tif f.stopped {\n\t\treturn nil, false\n\t}", new: "func (f *Frontier) Next(now time.Duration) (*Job, bool) {", why: "h2/frontier2/next-after-stop"},
	{round: 20, id: "h2/frontier2/refusal-hold-tries-ignored", file: "crawler/frontier/pace.go", old: "\treturn min(refusalHoldBase<<min(max(tries, 0), 5), maxPushbackGap)", new: "\treturn min(refusalHoldBase<<min(max(tries, 0), 0), maxPushbackGap)", why: "h2/frontier2/refusal-hold-tries-ignored"},
	{round: 20, id: "h2/frontier2/first-pushback-gap-doubles-zero", file: "crawler/frontier/pace.go", old: "\tslowest := max(2*old, firstPushbackGap)", new: "\tslowest := 2 * old", why: "h2/frontier2/first-pushback-gap-doubles-zero"},
	{round: 20, id: "h2/frontier2/extra-floor-ignores-delay", file: "crawler/frontier/pace.go", old: "\tp.extra = min(max(next-p.delay, 0), maxPushbackGap)", new: "\tp.extra = min(max(next, 0), maxPushbackGap)", why: "h2/frontier2/extra-floor-ignores-delay"},
}
