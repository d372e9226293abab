package resp

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// URL is where a Redis server is and how to log in to it, from
// redis://[[user]:password@]host[:port][/db].
type URL struct {
	Host     string // a name or an IP address (no brackets around IPv6)
	Port     int    // 6379 unless the URL says otherwise
	User     string // "" for the default user (AUTH password)
	Password string // "" to send no AUTH
	DB       int    // SELECTed on every connection; 0 by default
}

// ParseURL reads a redis:// URL. Examples:
//
//	redis://127.0.0.1:6379/0
//	redis://:secret@localhost      the default user, with a password
//	redis://crawler:secret@redis.internal:6380/2
//
// It refuses what it cannot honour rather than ignore it: rediss:// (TLS),
// unix sockets, query parameters, a user without a password.
func ParseURL(raw string) (URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return URL{}, fmt.Errorf("resp: bad URL: %w", err)
	}
	bad := func(format string, args ...any) (URL, error) {
		return URL{}, fmt.Errorf("resp: URL %s: "+format, append([]any{redact(u)}, args...)...)
	}
	switch u.Scheme {
	case "redis":
	case "rediss":
		return bad("TLS (rediss://) is not supported")
	default:
		return bad("scheme must be redis://")
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return bad("no host")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return bad("query parameters and fragments are not supported")
	}
	r := URL{Host: u.Hostname(), Port: 6379}
	if p := u.Port(); p != "" {
		if r.Port, err = strconv.Atoi(p); err != nil || r.Port < 1 || r.Port > 65535 {
			return bad("bad port %q", p)
		}
	}
	if u.User != nil {
		r.User = u.User.Username()
		pw, ok := u.User.Password()
		if !ok || pw == "" {
			return bad("a user name needs a password (redis://user:password@host, or redis://:password@host)")
		}
		r.Password = pw
	}
	switch path := u.Path; path {
	case "", "/":
	default:
		if r.DB, err = strconv.Atoi(path[1:]); err != nil || r.DB < 0 || path[1] == '+' {
			return bad("the path must be a database number, not %q", path)
		}
	}
	return r, nil
}

// Addr is host:port, with brackets around an IPv6 address.
func (r URL) Addr() string {
	if strings.Contains(r.Host, ":") {
		return "[" + r.Host + "]:" + strconv.Itoa(r.Port)
	}
	return r.Host + ":" + strconv.Itoa(r.Port)
}

// String is the URL with its password hidden: safe for logs and errors.
func (r URL) String() string {
	u := url.URL{Scheme: "redis", Host: r.Addr(), Path: "/" + strconv.Itoa(r.DB)}
	if r.Password != "" {
		u.User = url.UserPassword(r.User, "xxxxx")
	}
	return u.String()
}

func redact(u *url.URL) string {
	if _, has := u.User.Password(); has {
		u2 := *u
		u2.User = url.UserPassword(u.User.Username(), "xxxxx")
		return u2.String()
	}
	return u.String()
}
