package main

func init() { mutants = append(mutants, h2resp2...) }

var h2resp2 = []mutant{
	{round: 20, id: "h2/resp2/value-string-unclipped", file: "crawler/resp/value.go", old: "\t\tb.WriteString(clip(v.Str, maxStr))\n\tcase KindError:", new: "\t\tb.WriteString(v.Str)\n\tcase KindError:", why: "h2/resp2/value-string-unclipped"},
	{round: 20, id: "h2/resp2/value-string-depth", file: "crawler/resp/value.go", old: "\t\tif depth == maxDepth {", new: "\t\tif depth == maxDepth+1 {", why: "h2/resp2/value-string-depth"},
	{round: 20, id: "h2/resp2/kind-string-range", file: "crawler/resp/value.go", old: "\tif int(k) < len(kindNames) {", new: "\tif int(k) <= len(kindNames)-2 {", why: "h2/resp2/kind-string-range"},
	{round: 20, id: "h2/resp2/password-only-auth-dropped", file: "crawler/resp/login.go", old: "\tcase u.Password != \"\":\n\t\tstep(\"AUTH\", \"OK\", \"AUTH\", u.Password)", new: "\tcase u.Password != \"\" && false:\n\t\tstep(\"AUTH\", \"OK\", \"AUTH\", u.Password)", why: "h2/resp2/password-only-auth-dropped"},
	{round: 20, id: "h2/resp2/lost-event-says-retry", file: "crawler/resp/conn.go", old: "\t\tc.notify(ConnEvent{Err: cause})\n\t\treturn", new: "\t\tc.notify(ConnEvent{Err: cause, RetryIn: c.opts.MinBackoff})\n\t\treturn", why: "h2/resp2/lost-event-says-retry"},
	{round: 20, id: "h2/resp2/up-event-missing", file: "crawler/resp/login.go", old: "\tc.notify(ConnEvent{Up: true})", new: "", why: "h2/resp2/up-event-missing"},
	{round: 20, id: "h2/resp2/lost-up-waits-backoff", file: "crawler/resp/conn.go", old: "\tif cn.up {\n\t\tc.stats.Lost++", new: "\tif cn.up && false {\n\t\tc.stats.Lost++", why: "h2/resp2/lost-up-waits-backoff"},
	{round: 20, id: "h2/resp2/second-address-skipped", file: "crawler/resp/conn.go", old: "\tcn.next++\n\tf := c.loop.SockConnect(ap)", new: "\tcn.next += 2\n\tf := c.loop.SockConnect(ap)", why: "h2/resp2/second-address-skipped"},
	{round: 20, id: "h2/resp2/dns-error-hangs", file: "crawler/resp/conn.go", old: "\t\tif err != nil {\n\t\t\tcn.lost(err)\n\t\t\treturn\n\t\t}\n\t\tcn.addrs = addrs", new: "\t\tif err != nil {\n\t\t\treturn\n\t\t}\n\t\tcn.addrs = addrs", why: "h2/resp2/dns-error-hangs"},
	{round: 20, id: "h2/resp2/late-connect-fd-leaks", file: "crawler/resp/conn.go", old: "\t\t\tc.loop.SockClose(fd) // connected too late: the attempt timed out", new: "", why: "h2/resp2/late-connect-fd-leaks"},
	{round: 20, id: "h2/resp2/multi-reply-read-stops", file: "crawler/resp/connio.go", old: "\t\tif !cn.deliver(v) {\n\t\t\treturn\n\t\t}", new: "\t\tcn.deliver(v)\n\t\treturn", why: "h2/resp2/multi-reply-read-stops"},
	{round: 20, id: "h2/resp2/unexpected-reply-closes-not", file: "crawler/resp/connio.go", old: "\t\tused, err := cn.parser.Feed(b)\n\t\tif err != nil {\n\t\t\tcn.lost(err)\n\t\t\treturn\n\t\t}", new: "\t\tused, _ := cn.parser.Feed(b)", why: "h2/resp2/unexpected-reply-closes-not"},
	{round: 20, id: "h2/resp2/reply-timeout-idle-fires", file: "crawler/resp/conntimer.go", old: "\tcase cn.pending.len() > 0:", new: "\tcase true:", why: "h2/resp2/reply-timeout-idle-fires"},
	{round: 20, id: "h2/resp2/db-negative-accepted", file: "crawler/resp/url.go", old: "err != nil || r.DB < 0 ||", new: "err != nil ||", why: "h2/resp2/db-negative-accepted"},
	{round: 20, id: "h2/resp2/port-zero-accepted", file: "crawler/resp/url.go", old: "r.Port < 1 || r.Port > 65535", new: "r.Port < 0 || r.Port > 65535", why: "h2/resp2/port-zero-accepted"},
	{round: 20, id: "h2/resp2/close-unsent-as-lost", file: "crawler/resp/conn.go", old: "\t\tdefault:\n\t\t\tcl.f.SetError(notSent)", new: "\t\tdefault:\n\t\t\t_ = notSent\n\t\t\tcl.f.SetError(lost)", why: "h2/resp2/close-unsent-as-lost"},
	{round: 20, id: "h2/resp2/fifo-grow-min", file: "crawler/resp/fifo.go", old: "\tsize := max(8, 2*len(q.buf))", new: "\tsize := max(8, len(q.buf)+1)", why: "h2/resp2/fifo-grow-min"},
	{round: 20, id: "h2/resp2/script-arg-count", file: "crawler/resp/script.go", old: "\tn := 3 + len(keys) + len(args)", new: "\tn := 3 + len(keys) + len(args) - len(keys)/2", why: "h2/resp2/script-arg-count"},
	{round: 20, id: "h2/resp2/script-badarg-index", file: "crawler/resp/script.go", old: "\t\t\tf.SetError(badArg(3+len(keys)+i, \"EVALSHA\", a))", new: "\t\t\tf.SetError(badArg(i, \"EVALSHA\", a))", why: "h2/resp2/script-badarg-index"},
	{round: 20, id: "h2/resp2/int32-as-uint", file: "crawler/resp/command.go", old: "\tcase int32:\n\t\ts = strconv.AppendInt(num[:0], int64(v), 10)", new: "\tcase int32:\n\t\ts = strconv.AppendUint(num[:0], uint64(uint32(v)), 10)", why: "h2/resp2/int32-as-uint"},
}
