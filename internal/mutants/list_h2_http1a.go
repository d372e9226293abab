package main

// Round 20 (the list_h2_*.go files): the slips tried while hardening the
// tests of crawler/http1, crawler/resp, crawler/frontier and crawler/fleet
// after round 13, one file per batch. Each was tried against the tests of
// its day, and each one that survived got a test that kills it, unless it
// is marked equivalent (or named in the commit that left it, for the few
// that only a longer test could see). Ids under h2/fleetdone/ were judged
// only against the tests written for them.

func init() { mutants = append(mutants, h2http1a...) }

var h2http1a = []mutant{
	{round: 20, id: "h2/http1/status-no-space-after-code", file: "crawler/http1/head.go", old: "(len(line) == 12 || line[12] == ' ')", new: "true", why: "h2/http1/status-no-space-after-code"},
	{round: 20, id: "h2/http1/reason-keeps-space", file: "crawler/http1/head.go", old: "r.Reason = line[13:]", new: "r.Reason = line[12:]", why: "h2/http1/reason-keeps-space"},
	{round: 20, id: "h2/http1/fold-no-space", file: "crawler/http1/header.go", old: "last.Value += \" \" + more", new: "last.Value += more", why: "h2/http1/fold-no-space"},
	{round: 20, id: "h2/http1/keepalive-last-wins", file: "crawler/http1/framing.go", old: "keepAlive = keepAlive || strings.EqualFold(opt, \"keep-alive\")", new: "keepAlive = strings.EqualFold(opt, \"keep-alive\")", why: "h2/http1/keepalive-last-wins"},
	{round: 20, id: "h2/http1/http10-te-kept-open", file: "crawler/http1/framing.go", old: "if r.Header.Has(\"Content-Length\") || r.Proto == \"HTTP/1.0\" {", new: "if r.Header.Has(\"Content-Length\") {", why: "h2/http1/http10-te-kept-open"},
	{round: 20, id: "h2/http1/te-and-cl-kept-open", file: "crawler/http1/framing.go", old: "if r.Header.Has(\"Content-Length\") || r.Proto == \"HTTP/1.0\" {", new: "if r.Proto == \"HTTP/1.0\" {", why: "h2/http1/te-and-cl-kept-open"},
	{round: 20, id: "h2/http1/204-reads-body", file: "crawler/http1/framing.go", old: "r.StatusCode == 204 ||", new: "r.StatusCode == 205 ||", why: "h2/http1/204-reads-body"},
	{round: 20, id: "h2/http1/decimal-overflow-check", file: "crawler/http1/framing.go", old: "v > (1<<63-1-int64(d))/10", new: "v > (1<<63-1)/10", why: "h2/http1/decimal-overflow-check"},
	{round: 20, id: "h2/http1/x-gzip-unknown", file: "crawler/http1/framing.go", old: "|| strings.EqualFold(coding, \"x-gzip\")", new: "", why: "h2/http1/x-gzip-unknown"},
	{round: 20, id: "h2/http1/gzip-after-chunked-ok", file: "crawler/http1/framing.go", old: "\t\tcase chunked:\n\t\t\treturn false, 0, errorf(ErrProtocol, \"Transfer-Encoding %s after chunked\", quote(coding))", new: "\t\tcase chunked && false:\n\t\t\treturn false, 0, errorf(ErrProtocol, \"Transfer-Encoding %s after chunked\", quote(coding))", why: "h2/http1/gzip-after-chunked-ok"},
	{round: 20, id: "h2/http1/te-empty-element-ok", file: "crawler/http1/framing.go", old: "\t\t\tif trimOWS(elem) == \"\" {", new: "\t\t\tif false && trimOWS(elem) == \"\" {", why: "h2/http1/te-empty-element-ok"},
	{round: 20, id: "h2/http1/te-not-last-chunked-keepalive", file: "crawler/http1/framing.go", old: "\t\tr.Close = true\n\t\tp.state = stateBodyClose\n\tcase r.ContentLength >= 0:", new: "\t\tp.state = stateBodyClose\n\tcase r.ContentLength >= 0:", why: "h2/http1/te-not-last-chunked-keepalive"},
	{round: 20, id: "h2/http1/cr-cr-lf-chunk-end", file: "crawler/http1/chunked.go", old: "case b[0] == '\\r' && !p.sawCR:", new: "case b[0] == '\\r':", why: "h2/http1/cr-cr-lf-chunk-end"},
	{round: 20, id: "h2/http1/chunk-size-empty-ok", file: "crawler/http1/chunked.go", old: "if i == 0 || len(rest) > 0", new: "if len(rest) > 0", why: "h2/http1/chunk-size-empty-ok"},
	{round: 20, id: "h2/http1/chunk-upper-hex", file: "crawler/http1/chunked.go", old: "return int(c - 'A' + 10)", new: "return int(c - 'A')", why: "h2/http1/chunk-upper-hex"},
	{round: 20, id: "h2/http1/chunk-overflow-early", file: "crawler/http1/chunked.go", old: "if size > (1<<63-1)>>4 {", new: "if size > (1<<63-1)>>8 {", why: "h2/http1/chunk-overflow-early"},
	{round: 20, id: "h2/http1/blank-line-any-one-byte", file: "crawler/http1/head.go", old: "end-lineStart == 1 && p.byteBefore(window, end) == '\\r'", new: "end-lineStart == 1", why: "h2/http1/blank-line-any-one-byte"},
	{round: 20, id: "h2/http1/reset-keeps-limits", file: "crawler/http1/parser.go", old: "\t\tlim:       p.base,", new: "\t\tlim:       p.lim,", why: "h2/http1/reset-keeps-limits"},
	{round: 20, id: "h2/http1/into-keeps-length", file: "crawler/http1/head.go", old: "*r = Response{Header: header, ContentLength: -1}", new: "*r = Response{Header: header}", why: "h2/http1/into-keeps-length"},
	{round: 20, id: "h2/http1/into-keeps-trailer", file: "crawler/http1/head.go", old: "*r = Response{Header: header, ContentLength: -1}", new: "r.Header, r.ContentLength, r.Body = header, -1, nil", why: "h2/http1/into-keeps-trailer"},
	{round: 20, id: "h2/http1/cut-keeps-conn", file: "crawler/http1/bodylimit.go", old: "\tp.take(b[:k])\n\tp.resp.Truncated, p.resp.Close = true, true", new: "\tp.take(b[:k])\n\tp.resp.Truncated = true", why: "h2/http1/cut-keeps-conn"},
	{round: 20, id: "h2/http1/frame-limit-lt", file: "crawler/http1/bodylimit.go", old: "if p.bodyRead <= p.lim.MaxBodyBytes || p.discard {", new: "if p.bodyRead < p.lim.MaxBodyBytes || p.discard {", why: "h2/http1/frame-limit-lt"},
	{round: 20, id: "h2/http1/headdone-after-fail", file: "crawler/http1/bodylimit.go", old: "return p.resp != nil && p.state != stateFailed", new: "return p.resp != nil", why: "h2/http1/headdone-after-fail", equivalent: "fail already sets resp to nil, so HeadDone is false either way"},
	{round: 20, id: "h2/http1/remaining-done-unknown", file: "crawler/http1/bodylimit.go", old: "\tif p.state == stateDone {\n\t\treturn 0", new: "\tif p.state == stateDone {\n\t\treturn -1", why: "h2/http1/remaining-done-unknown"},
	{round: 20, id: "h2/http1/gunzip-cut-at-limit-not-marked", file: "crawler/http1/decode.go", old: "out, p.resp.Truncated = out[:limit], true", new: "out = out[:limit]", why: "h2/http1/gunzip-cut-at-limit-not-marked"},
	{round: 20, id: "h2/http1/limitbody-zero-overrides", file: "crawler/http1/bodylimit.go", old: "\tif maxBytes > 0 {\n\t\tp.lim.MaxBodyBytes = maxBytes", new: "\tif maxBytes >= 0 {\n\t\tp.lim.MaxBodyBytes = maxBytes", why: "h2/http1/limitbody-zero-overrides"},
	{round: 20, id: "h2/http1/started-on-empty-feed", file: "crawler/http1/parser.go", old: "\tif len(b) > 0 {\n\t\tp.started = true", new: "\tif len(b) >= 0 {\n\t\tp.started = true", why: "h2/http1/started-on-empty-feed"},
	{round: 20, id: "h2/http1/bodyclose-limit-not-truncating", file: "crawler/http1/parser.go", old: "\t\t\tif p.truncate {\n\t\t\t\treturn p.cut(b)\n\t\t\t}\n\t\t\treturn 0, errorf(ErrBodyTooLarge, \"body larger", new: "\t\t\tif true {\n\t\t\t\treturn p.cut(b)\n\t\t\t}\n\t\t\treturn 0, errorf(ErrBodyTooLarge, \"body larger", why: "h2/http1/bodyclose-limit-not-truncating"},
	{round: 20, id: "h2/http1/discard-keeps-body-limit", file: "crawler/http1/bodylimit.go", old: "\t\treturn false // nothing is kept", new: "\t\treturn p.bodyRead+int64(n) > p.lim.MaxBodyBytes && p.truncate // nothing is kept", why: "h2/http1/discard-keeps-body-limit"},
}
