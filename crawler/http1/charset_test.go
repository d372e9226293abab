package http1_test

import (
	"strings"
	"testing"

	"loopkit/crawler/http1"
)

func TestCharset(t *testing.T) {
	const (
		metaEUCKR = `<html><head><meta charset="EUC-KR"><title>x</title>`
		bomUTF8   = "\xef\xbb\xbf"
	)
	tests := []struct {
		name, contentType, body, want string
	}{
		{"nothing declared", "text/html", "<html><p>plain</p>", "utf-8"},
		{"no Content-Type at all", "", "plain", "utf-8"},
		{"declared", "text/html; charset=Shift_JIS", "<p>x</p>", "shift_jis"},
		{"declared, quoted, odd case", `Text/HTML; CHARSET="utf-8"`, "", "utf-8"},
		{"declared labels map to the WHATWG name", "text/plain; charset=ISO-8859-1", "", "windows-1252"},
		{"meta charset", "text/html", metaEUCKR, "euc-kr"},
		{"meta charset, unquoted", "text/html", `<meta charset=gb2312>`, "gbk"},
		{"meta http-equiv", "text/html",
			`<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`, "windows-1251"},
		{"meta http-equiv, its charset in single quotes", "text/html",
			`<meta http-equiv="content-type" content="text/html; charset='iso-8859-2'">`, "iso-8859-2"},
		{"meta http-equiv: a word that contains charset is not it", "text/html",
			`<meta http-equiv="Content-Type" content="text/html; x-charset-note=1; charset=koi8-r">`, "koi8-r"},
		{"meta http-equiv: charset= with nothing after it names nothing", "text/html",
			`<meta http-equiv="Content-Type" content="text/html; charset=  ">`, "utf-8"},
		{"meta http-equiv: an unterminated quote names nothing, not a later charset", "text/html",
			`<meta http-equiv="Content-Type" content="text/html; charset='koi8-r; charset=big5">`, "utf-8"},
		{"meta content without http-equiv is no declaration", "text/html",
			`<meta content="text/html; charset=windows-1251">`, "utf-8"},
		{"the first meta that names a known encoding counts", "text/html",
			`<meta charset="bogus"><meta charset="koi8-r"><meta charset="big5">`, "koi8-r"},
		{"repeated attribute: the first counts", "text/html", `<meta charset="koi8-r" charset="big5">`, "koi8-r"},
		{"repeated attribute: the attributes after it still count", "text/html",
			`<meta http-equiv="content-type" http-equiv="refresh" content="text/html; charset=koi8-r">`, "koi8-r"},
		{"meta in a comment is not a declaration", "text/html", `<!-- <meta charset="koi8-r"> --><p>`, "utf-8"},
		{"meta after the first 1024 bytes is not looked for", "text/html",
			"<p>" + strings.Repeat("x", 1024) + `<meta charset="koi8-r">`, "utf-8"},
		{"meta declaring UTF-16 means UTF-8", "text/html", `<meta charset="utf-16le">`, "utf-8"},
		{"meta in XHTML", "application/xhtml+xml", metaEUCKR, "euc-kr"},
		{"meta is not looked for outside HTML", "text/plain", metaEUCKR, "utf-8"},
		{"declared beats meta", "text/html; charset=koi8-r", metaEUCKR, "koi8-r"},
		{"an unknown declared label is skipped", "text/html; charset=no-such-thing", metaEUCKR, "euc-kr"},
		{"a malformed Content-Type still yields its charset", "text/html; charset=koi8-r; charset=big5", "", "koi8-r"},
		{"BOM", "", bomUTF8 + "x", "utf-8"},
		{"BOM beats declared", "text/html; charset=windows-1252", bomUTF8 + "x", "utf-8"},
		{"BOM beats meta", "text/html", bomUTF8 + metaEUCKR, "utf-8"},
		{"UTF-16LE BOM beats declared UTF-8", "text/html; charset=utf-8", "\xff\xfe<\x00", "utf-16le"},
		{"UTF-16BE BOM", "", "\xfe\xff\x00<", "utf-16be"},
	}
	for _, tc := range tests {
		if got := http1.Charset(tc.contentType, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: Charset(%q, %.40q) = %q, want %q", tc.name, tc.contentType, tc.body, got, tc.want)
		}
	}
}

func TestMediaType(t *testing.T) {
	tests := []struct{ contentType, want string }{
		{"text/html", "text/html"},
		{"Text/HTML; charset=UTF-8", "text/html"},
		{"application/xhtml+xml;charset=utf-8", "application/xhtml+xml"},
		{"", ""},
		{"text/html;", "text/html"},
		{"text/html; charset", "text/html"},               // a broken parameter
		{"text/html, text/html", "text/html"},             // merged duplicate fields
		{"TEXT/HTML garbage", "text/html"},                // junk after the type
		{"text/html; charset=a; charset=b", "text/html"},  // duplicate parameter
		{"  text/plain ; format=flowed", "text/plain"},    // leading space
		{"garbage", "garbage"},                            // nothing better to say
		{"text/html;charset=\"unterminated", "text/html"}, // broken quoting
		{"image/svg+xml; charset=utf-8", "image/svg+xml"}, // no special cases
		{"multipart/x-mixed-replace; boundary=x", "multipart/x-mixed-replace"},
		{"\ntext/html", "text/html"},          // what mime accepts is taken from it
		{"\ntext/html; charset", "text/html"}, // so is its type with a broken parameter
		{"; charset=utf-8", ""},               // no type at all
	}
	for _, tc := range tests {
		if got := http1.MediaType(tc.contentType); got != tc.want {
			t.Errorf("MediaType(%q) = %q, want %q", tc.contentType, got, tc.want)
		}
	}
}
