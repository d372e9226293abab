package robots

import "strings"

// rule is one Allow or Disallow line of the group that applies to us.
type rule struct {
	allow   bool
	pattern string   // in canonical form, as written in the file otherwise
	length  int      // len(pattern): the octets that decide which rule wins
	parts   []string // pattern split at "*", without the final "$"
	endAnch bool     // pattern ends with "$": it must match the whole path
}

// newRule prepares a canonical pattern for matching.
func newRule(allow bool, pattern string) rule {
	r := rule{allow: allow, pattern: pattern, length: len(pattern)}
	p := pattern
	if strings.HasSuffix(p, "$") {
		// canonical escapes every other "$", so this one is the anchor.
		r.endAnch, p = true, p[:len(p)-1]
	}
	r.parts = strings.Split(p, "*")
	return r
}

// matches reports whether the pattern matches path, a canonical path.
//
// A pattern is literal text where "*" stands for any run of characters
// (RFC 9309 §2.2.3). It matches from the first octet of the path, and
// unless it ends with "$" it need only match a prefix: "/fish" matches
// "/fish.html" and "/fish/salmon", "/fish$" only "/fish".
//
// Split at its stars, a pattern is a sequence of literal parts. The first
// must start the path; each next one is found at its leftmost place after
// the previous, because a leftmost match leaves the most room for the rest,
// so no backtracking is ever needed; the last must end the path when
// anchored. The cost is linear in the lengths of path and pattern.
func (r *rule) matches(path string) bool {
	first := r.parts[0]
	if !strings.HasPrefix(path, first) {
		return false
	}
	rest := path[len(first):]
	if len(r.parts) == 1 { // no star
		return !r.endAnch || rest == ""
	}
	last := len(r.parts) - 1
	for _, part := range r.parts[1:last] {
		i := strings.Index(rest, part)
		if i < 0 {
			return false
		}
		rest = rest[i+len(part):]
	}
	if r.endAnch {
		return strings.HasSuffix(rest, r.parts[last])
	}
	return strings.Contains(rest, r.parts[last])
}
