package main

func init() { mutants = append(mutants, h2http1c...) }

var h2http1c = []mutant{
	{round: 20, id: "h2/http1c/bom-utf16-swapped", file: "crawler/http1/charset.go", old: "\t\treturn \"utf-16be\"", new: "\t\treturn \"utf-16le\"", why: "h2/http1c/bom-utf16-swapped"},
	{round: 20, id: "h2/http1c/header-charset-after-meta", file: "crawler/http1/charset.go", old: "\tif name := lookup(charsetParam(contentType)); name != \"\" {\n\t\treturn name\n\t}", new: "\tif name := lookup(charsetParam(contentType)); name != \"\" && false {\n\t\treturn name\n\t}", why: "h2/http1c/header-charset-after-meta"},
	{round: 20, id: "h2/http1c/meta-for-any-type", file: "crawler/http1/charset.go", old: "mt == \"text/html\" || mt == \"application/xhtml+xml\"", new: "mt != \"\"", why: "h2/http1c/meta-for-any-type"},
	{round: 20, id: "h2/http1c/http-equiv-any", file: "crawler/http1/charset.go", old: "\t\t\tif label == \"\" && isContentType {", new: "\t\t\tif label == \"\" {", why: "h2/http1c/http-equiv-any"},
	{round: 20, id: "h2/http1c/content-charset-quote-kept", file: "crawler/http1/charset.go", old: "\t\t\t\treturn rest[1 : 1+end]", new: "\t\t\t\treturn rest[0 : 1+end]", why: "h2/http1c/content-charset-quote-kept"},
	{round: 20, id: "h2/http1c/content-charset-no-equals", file: "crawler/http1/charset.go", old: "\t\tif !strings.HasPrefix(rest, \"=\") {\n\t\t\tcontinue\n\t\t}\n\t\trest = strings.TrimLeft(rest[1:], \" \\t\\n\\f\\r\")", new: "\t\trest = strings.TrimLeft(rest[1:], \" \\t\\n\\f\\r\")", why: "h2/http1c/content-charset-no-equals"},
	{round: 20, id: "h2/http1c/media-type-bad-params-case", file: "crawler/http1/charset.go", old: "\treturn strings.ToLower(s)", new: "\treturn s", why: "h2/http1c/media-type-bad-params-case"},
	{round: 20, id: "h2/http1c/timeout-error-kept", file: "crawler/http1/dial.go", old: "\t\tif !a.timedOut {\n\t\t\td.lastErr = err\n\t\t}", new: "\t\td.lastErr = err", why: "h2/http1c/timeout-error-kept"},
	{round: 20, id: "h2/http1c/interleave-drops-last", file: "crawler/http1/dial.go", old: "\tfor i := 0; i < len(same) || i < len(other); i++ {", new: "\tfor i := 0; i < len(same) && i < len(other); i++ {", why: "h2/http1c/interleave-drops-last"},
	{round: 20, id: "h2/http1c/expired-total-last", file: "crawler/http1/conntimer.go", old: "\tif c.ex != nil && c.ex.deadline <= phaseEnd && (c.headBy == 0 || c.ex.deadline <= c.headBy) {", new: "\tif c.ex != nil && c.ex.deadline < phaseEnd && (c.headBy == 0 || c.ex.deadline < c.headBy) {", why: "h2/http1c/expired-total-last"},
	{round: 20, id: "h2/http1c/written-timing-missing", file: "crawler/http1/connio.go", old: "\tc.ex.reply.Timings.Written = c.ex.since()", new: "", why: "h2/http1c/written-timing-missing"},
	{round: 20, id: "h2/http1c/firstbyte-overwritten", file: "crawler/http1/connio.go", old: "\tif c.ex.reply.Timings.FirstByte == 0 {\n\t\tc.ex.reply.Timings.FirstByte = at\n\t}", new: "\tc.ex.reply.Timings.FirstByte = at", why: "h2/http1c/firstbyte-overwritten"},
	{round: 20, id: "h2/http1c/onsent-before-armed", file: "crawler/http1/connio.go", old: "\tif c.ex.onSent != nil {\n\t\tc.ex.onSent() // last", new: "\tif c.ex.onSent != nil && false {\n\t\tc.ex.onSent() // last", why: "h2/http1c/onsent-before-armed"},
	{round: 20, id: "h2/http1c/trace-conn-id", file: "crawler/http1/exchange.go", old: "\t*ex.trace = Trace{Conn: ex.connID, Start: ex.start, Timings: ex.reply.Timings}", new: "\t*ex.trace = Trace{Start: ex.start, Timings: ex.reply.Timings}", why: "h2/http1c/trace-conn-id"},
	{round: 20, id: "h2/http1c/pool-key-ignores-port", file: "crawler/http1/client.go", old: "\tkey := poolKey{t.Scheme == \"https\", t.Hostname, t.Port}", new: "\tkey := poolKey{t.Scheme == \"https\", t.Hostname, 0}", why: "h2/http1c/pool-key-ignores-port"},
	{round: 20, id: "h2/http1c/drop-idle-leaves-one", file: "crawler/http1/pool.go", old: "\tfor len(p.idle) > 0 {\n\t\tp.idle[len(p.idle)-1].close()", new: "\tfor len(p.idle) > 1 {\n\t\tp.idle[len(p.idle)-1].close()", why: "h2/http1c/drop-idle-leaves-one"},
	{round: 20, id: "h2/http1c/closeall-waiters-kept", file: "crawler/http1/pool.go", old: "\tfor _, ex := range p.waiters {\n\t\tex.fail(err)\n\t}", new: "", why: "h2/http1c/closeall-waiters-kept"},
	{round: 20, id: "h2/http1c/pool-forgotten-with-waiters", file: "crawler/http1/pool.go", old: "\tif p.open == 0 && len(p.waiters) == 0 && p.client.pools[p.key] == p {", new: "\tif p.open == 0 && p.client.pools[p.key] == p {", why: "h2/http1c/pool-forgotten-with-waiters"},
	{round: 20, id: "h2/http1c/request-target-space-allowed", file: "crawler/http1/request.go", old: "\t\tif s[i] <= ' ' || s[i] >= 0x7f {", new: "\t\tif s[i] < ' ' || s[i] >= 0x7f {", why: "h2/http1c/request-target-space-allowed"},
	{round: 20, id: "h2/http1c/method-case-folded", file: "crawler/http1/exchange.go", old: "\tif ex.method == \"\" {\n\t\tex.method = \"GET\"\n\t}", new: "", why: "h2/http1c/method-case-folded"},
	{round: 20, id: "h2/http1c/opaque-url-accepted", file: "crawler/http1/request.go", old: "\tif u.Opaque != \"\" || u.Hostname() == \"\" {", new: "\tif u.Hostname() == \"\" {", why: "h2/http1c/opaque-url-accepted"},
	{round: 20, id: "h2/http1c/force-query-dropped", file: "crawler/http1/request.go", old: "\tif u.RawQuery != \"\" || u.ForceQuery {", new: "\tif u.RawQuery != \"\" {", why: "h2/http1c/force-query-dropped"},
	{round: 20, id: "h2/http1c/ipv6-host-unbracketed", file: "crawler/http1/request.go", old: "\t\treturn addr.String(), \"[\" + addr.WithZone(\"\").String() + \"]\", nil", new: "\t\treturn addr.String(), addr.WithZone(\"\").String(), nil", why: "h2/http1c/ipv6-host-unbracketed"},
	{round: 20, id: "h2/http1c/plain-port-leading-zero", file: "crawler/http1/target.go", old: "\tif p == \"\" || len(p) > 5 || p[0] == '0' {", new: "\tif p == \"\" || len(p) > 5 {", why: "h2/http1c/plain-port-leading-zero"},
}
