package urlnorm

import (
	_ "embed" // for the list below
	"strings"
	"sync"

	"golang.org/x/net/idna"
)

// The Public Suffix List (publicsuffix.org) names the suffixes under which
// anyone may register a name: "com", "co.uk", "github.io". One label more
// is a registrable domain, the unit Scope calls a site in lenient mode.
//
// public_suffix_list.dat is the list as published, unmodified, under the
// Mozilla Public License 2.0 that its header states; this copy comes from
// Debian's publicsuffix package, version 20230209. To update it, replace
// the file with a newer public_suffix_list.dat.
//
// Why a copy of our own instead of golang.org/x/net/publicsuffix: that
// package imports net/http/cookiejar (its List implements the cookiejar
// interface), which would bring net/http into every package that imports
// this one, and loopkit's crawler promises not to depend on net/http.
//
//go:embed public_suffix_list.dat
var suffixListText string

type suffixKind uint8

const (
	suffixRule      suffixKind = iota + 1 // "co.uk", or a wildcard "*.ck"
	suffixException                       // "!www.ck": not a suffix after all
)

var (
	suffixOnce  sync.Once
	suffixRules map[string]suffixKind // parsed on first use
)

// loadSuffixes parses the list: one rule per line, read up to the first
// white space, "//" comments and blank lines skipped. The list writes
// internationalized rules in Unicode ("公司.cn"); they are stored in
// Punycode ("xn--55qx5d.cn"), the form normalizeHost gives every host name.
func loadSuffixes() {
	rules := make(map[string]suffixKind, 10000)
	for _, line := range strings.Split(suffixListText, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "//") {
			continue
		}
		rule, kind := fields[0], suffixRule
		if r, ok := strings.CutPrefix(rule, "!"); ok {
			rule, kind = r, suffixException
		}
		if ascii, err := idna.Punycode.ToASCII(rule); err == nil {
			rule = ascii
		}
		rules[rule] = kind
	}
	suffixRules = rules
}

// publicSuffix returns the public suffix of domain, a normalized (so
// ASCII) host name ("co.uk" for "news.bbc.co.uk"), by the list's
// algorithm: of all rules that match, an exception wins, otherwise the
// longest rule; an exception rule's suffix is the rule less its first
// label; and when no rule matches, the suffix is the last label (the
// implicit rule "*").
func publicSuffix(domain string) string {
	suffixOnce.Do(loadSuffixes)
	longest := ""
	// Try "a.b.c", then "b.c", then "c": the first match is the longest.
	for s := domain; s != ""; {
		_, parent, _ := strings.Cut(s, ".")
		switch suffixRules[s] {
		case suffixException:
			return parent
		case suffixRule:
			if longest == "" {
				longest = s
			}
		}
		if longest == "" && parent != "" && suffixRules["*."+parent] == suffixRule {
			longest = s // "*.ck" matches "anything.ck"
		}
		s = parent
	}
	if longest == "" {
		return domain[strings.LastIndexByte(domain, '.')+1:]
	}
	return longest
}

// registrableDomain returns the eTLD+1 of name ("news.bbc.co.uk" →
// "bbc.co.uk"), or name itself when it has none: IP addresses, single
// labels such as "localhost", public suffixes such as "co.uk", and
// malformed names.
func registrableDomain(name string) string {
	if isIP(name) || name == "" || name[0] == '.' || strings.Contains(name, "..") {
		return name // a suffix list would call "127.0.0.1" a name under ".1"
	}
	suffix := publicSuffix(name)
	if len(suffix) >= len(name) {
		return name
	}
	rest := name[:len(name)-len(suffix)-1] // "news.bbc" of "news.bbc.co.uk"
	return name[strings.LastIndexByte(rest, '.')+1:]
}
