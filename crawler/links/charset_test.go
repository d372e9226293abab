package links

import (
	"reflect"
	"testing"
)

// TestExtractCharset: a link's query is sent in the page's charset, as a
// browser sends it; its path, and everything on a UTF-8 page, in UTF-8.
func TestExtractCharset(t *testing.T) {
	const doc = `<a href="/é?q=é">x</a>`
	tests := []struct {
		label string
		want  string
	}{
		{"windows-1252", "http://example.com/%C3%A9?q=%E9"},
		{"ISO-8859-1", "http://example.com/%C3%A9?q=%E9"}, // a label of windows-1252
		{"latin1", "http://example.com/%C3%A9?q=%E9"},
		{"utf-8", "http://example.com/%C3%A9?q=%C3%A9"},
		{"", "http://example.com/%C3%A9?q=%C3%A9"},
		{"no-such-charset", "http://example.com/%C3%A9?q=%C3%A9"},
		{"UTF-16LE", "http://example.com/%C3%A9?q=%C3%A9"},    // sends UTF-8
		{"UTF-16BE", "http://example.com/%C3%A9?q=%C3%A9"},    // sends UTF-8
		{"iso-2022-kr", "http://example.com/%C3%A9?q=%C3%A9"}, // "replacement": sends UTF-8
		{"shift_jis", "http://example.com/%C3%A9?q=%26%23233%3B"},
	}
	for _, tt := range tests {
		got, err := ExtractCharset([]byte(doc), mustParse(t, page), tt.label)
		if err != nil {
			t.Fatal(err)
		}
		if s := urlStrings(got); !reflect.DeepEqual(s, []string{tt.want}) {
			t.Errorf("charset %q: got %q, want %q", tt.label, s, tt.want)
		}
	}
}

func TestExtractCharsetBaseHref(t *testing.T) {
	// The <base href> is a URL in the page too: its query is in the page's
	// charset, and an empty href is the base itself.
	doc := `<base href="/b/?q=é"><a href="">x</a><a href="c?r=ü">y</a>`
	got, err := ExtractCharset([]byte(doc), mustParse(t, page), "windows-1252")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://example.com/b/?q=%E9", "http://example.com/b/c?r=%FC"}
	if s := urlStrings(got); !reflect.DeepEqual(s, want) {
		t.Errorf("got %q, want %q", s, want)
	}
}

// TestExtractCharsetReplacementAsUTF8: a page in a refused encoding
// ("iso-2022-kr", whose encoding is "replacement") sends its links exactly
// as a UTF-8 page does, even where the body holds bytes that are not
// UTF-8: those are not rewritten to U+FFFD.
func TestExtractCharsetReplacementAsUTF8(t *testing.T) {
	const doc = "<a href=\"/\xff?q=\xff\">x</a><a href=\"/?q=a\xe9b\">y</a><a href=\"/?q=é\">z</a>"
	utf8Links, err := ExtractCharset([]byte(doc), mustParse(t, page), "utf-8")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ExtractCharset([]byte(doc), mustParse(t, page), "iso-2022-kr")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://example.com/%FF?q=%FF", "http://example.com/?q=a%E9b", "http://example.com/?q=%C3%A9"}
	if s := urlStrings(utf8Links); !reflect.DeepEqual(s, want) {
		t.Errorf("utf-8: got %q, want %q", s, want)
	}
	if s := urlStrings(got); !reflect.DeepEqual(s, want) {
		t.Errorf("iso-2022-kr: got %q, want %q", s, want)
	}
}
