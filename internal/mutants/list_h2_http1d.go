package main

func init() { mutants = append(mutants, h2http1d...) }

var h2http1d = []mutant{
	{round: 20, id: "h2/http1d/tls-ip-zone-kept", file: "crawler/http1/tls.go", old: "\t\tcfg.ServerName = a.WithZone(\"\").String()", new: "\t\tcfg.ServerName = t.Hostname", why: "h2/http1d/tls-ip-zone-kept"},
	{round: 20, id: "h2/http1d/tls-eof-not-truncated", file: "crawler/http1/tls.go", old: "\t\t\terr = errorf(ErrTruncated, \"connection closed during the handshake\")", new: "\t\t\terr = errorf(ErrProtocol, \"connection closed during the handshake\")", why: "h2/http1d/tls-eof-not-truncated"},
	{round: 20, id: "h2/http1d/tls-handshake-input-unbounded", file: "crawler/http1/tls.go", old: "\t\tif c.tls.bridge.buffered() > maxHandshakeInput {", new: "\t\tif c.tls.bridge.buffered() > maxHandshakeInput*1024 {", why: "h2/http1d/tls-handshake-input-unbounded"},
	{round: 20, id: "h2/http1d/tls-no-close-notify-ok", file: "crawler/http1/tls.go", old: "\t\tcase err == io.EOF && c.tls.bridge.sawEOF() && c.ex != nil && c.parser.ReadsUntilClose():", new: "\t\tcase err == io.EOF && c.tls.bridge.sawEOF() && c.ex != nil && c.parser.ReadsUntilClose() && false:", why: "h2/http1d/tls-no-close-notify-ok"},
	{round: 20, id: "h2/http1d/tls-mid-record-eof-clean", file: "crawler/http1/tls.go", old: "\t\t\terr = errorf(ErrTruncated, \"connection closed inside a TLS record\")", new: "\t\t\terr = nil", why: "h2/http1d/tls-mid-record-eof-clean"},
	{round: 20, id: "h2/http1d/tls-settled-ignores-partial", file: "crawler/http1/tls.go", old: "\treturn n == 0 && err == errWouldBlock && c.tls.bridge.wholeRecords()", new: "\treturn n == 0 && err == errWouldBlock", why: "h2/http1d/tls-settled-ignores-partial"},
	{round: 20, id: "h2/http1d/tls-close-no-notify", file: "crawler/http1/tls.go", old: "\t\t_ = c.tls.conn.CloseWrite()", new: "", why: "h2/http1d/tls-close-no-notify"},
	{round: 20, id: "h2/http1d/tls-alpn-missing", file: "crawler/http1/client.go", old: "\ttlsBase.NextProtos = []string{\"http/1.1\"}", new: "", why: "h2/http1d/tls-alpn-missing"},
	{round: 20, id: "h2/http1d/header-timeout-not-armed", file: "crawler/http1/connio.go", old: "\tc.awaitHead()\n\tc.arm(\"read\"", new: "\tc.arm(\"read\"", why: "h2/http1d/header-timeout-not-armed"},
	{round: 20, id: "h2/http1d/write-timeout-phase", file: "crawler/http1/connio.go", old: "\t\t\t\tc.arm(\"write\", c.pool.client.opts.WriteTimeout)", new: "\t\t\t\tc.arm(\"read\", c.pool.client.opts.WriteTimeout)", why: "h2/http1d/write-timeout-phase"},
	{round: 20, id: "h2/http1d/pool-timeout-phase", file: "crawler/http1/pool.go", old: "\t\t\tex.fail(&TimeoutError{Phase: \"pool\", After: timeout})", new: "\t\t\tex.fail(&TimeoutError{Phase: \"total\", After: timeout})", why: "h2/http1d/pool-timeout-phase"},
	{round: 20, id: "h2/http1d/trace-start", file: "crawler/http1/exchange.go", old: "\t*ex.trace = Trace{Conn: ex.connID, Start: ex.start, Timings: ex.reply.Timings}", new: "\t*ex.trace = Trace{Conn: ex.connID, Timings: ex.reply.Timings}", why: "h2/http1d/trace-start"},
}
