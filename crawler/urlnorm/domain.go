package urlnorm

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrInvalidHost is returned by Normalize and Resolve for an http or https
// URL whose host is no domain name a browser would accept: IDNA rejects it
// ("xn--zz.com", a label mixing left-to-right and right-to-left scripts) or
// it holds a character no host may have ("a<b", "a%b", "a b"). Test for it
// with errors.Is: it is a broken link, where ErrNotCrawlable is a link that
// is not for us.
var ErrInvalidHost = errors.New("urlnorm: invalid host name")

// hostProfile maps host names the way browsers do. The URL Standard's
// "domain to ASCII" runs UTS #46 ToASCII with these settings, and Chrome,
// Firefox and Safari follow it, so a crawler that uses them sees one host
// where a browser sees one host:
//
//   - the Lookup mapping (case folding, full-width forms, NFC), not the
//     Registration profile, which refuses "BÜCHER.de" instead of mapping it:
//     a link is something to look up, not a name to register;
//   - nontransitional: "faß.de" is xn--fa-hia.de, not "fass.de", another
//     domain (browsers switched around 2017; UTS #46 deprecates the rest);
//   - CheckHyphens off: "r3---sn-abc.googlevideo.com" and "-x.example" are
//     real hosts, though IDNA 2008 would refuse them;
//   - UseSTD3ASCIIRules off: "_dmarc" and "my_host" are real too; the
//     characters that cannot be in a host are refused by forbiddenInHost;
//   - CheckBidi and CheckJoiners on, and no DNS length checks.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
)

// domainToASCII returns the ASCII form of a host name, in Punycode where it
// has non-ASCII labels: "BÜCHER.de" and "bücher.de" are "xn--bcher-kva.de",
// the name DNS knows. An error wraps ErrInvalidHost.
func domainToASCII(name string) (string, error) {
	if plainASCII(name) {
		// The common case. UTS #46 maps an ASCII name only by
		// lower-casing it, and validates nothing without "xn--" labels.
		name = strings.ToLower(name)
	} else {
		if !utf8.ValidString(name) {
			// The URL Standard decodes a host as UTF-8, making a bad byte
			// U+FFFD, which IDNA refuses. x/net/idna would encode it.
			return "", fmt.Errorf("%w %q: not UTF-8", ErrInvalidHost, name)
		}
		if fakePunycode(name) {
			return "", fmt.Errorf("%w %q: a Punycode label that is plain ASCII", ErrInvalidHost, name)
		}
		ascii, err := hostProfile.ToASCII(name)
		if err != nil {
			return "", fmt.Errorf("%w %q: %w", ErrInvalidHost, name, err)
		}
		name = ascii
	}
	if i := strings.IndexFunc(name, forbiddenInHost); i >= 0 {
		return "", fmt.Errorf("%w %q: %q may not appear in a host", ErrInvalidHost, name, name[i])
	}
	return name, nil
}

// forbiddenInHost reports whether r is a "forbidden domain code point" of
// the URL Standard: a control, space, or one of the characters that
// delimit a URL's parts or its escapes. After ToASCII, a name holds nothing
// but ASCII.
func forbiddenInHost(r rune) bool {
	return r <= ' ' || r >= 0x7f || strings.ContainsRune("#%/:<>?@[\\]^|", r)
}

// plainASCII reports whether name is ASCII without a Punycode ("xn--")
// label: nothing for IDNA to decode or map beyond case.
func plainASCII(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return false
		}
		if (i == 0 || name[i-1] == '.') && len(name)-i >= 4 && strings.EqualFold(name[i:i+4], "xn--") {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fakePunycode reports whether a label of name starts with "xn--" but
// decodes to plain ASCII ("xn--abc-" is "abc", "xn--" is ""). UTS #46
// (since 15.1) and so browsers refuse those; x/net/idna would quietly turn
// "xn--abc-.com" into "abc.com", which DNS knows as another name.
func fakePunycode(name string) bool {
	isDot := func(r rune) bool { return r == '.' || r == '。' || r == '．' || r == '｡' }
	for _, label := range strings.FieldsFunc(name, isDot) {
		if len(label) < 4 || !strings.EqualFold(label[:4], "xn--") {
			continue
		}
		u, err := idna.Punycode.ToUnicode(strings.ToLower(label))
		if err == nil && isASCII(u) {
			return true
		}
	}
	return false
}
