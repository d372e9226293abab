package http1_test

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/testca"
)

// tlsServer is a countingServer over TLS, with a certificate from ca for
// names (127.0.0.1, ::1 and localhost if none), that notes what each
// client said in its hello.
type tlsServer struct {
	*countingServer
	mu     sync.Mutex
	hellos []*tls.ClientHelloInfo
}

func newTLSServer(t *testing.T, ca *testca.CA, h http.Handler, names ...string) *tlsServer {
	s := &tlsServer{countingServer: &countingServer{Server: httptest.NewUnstartedServer(h)}}
	s.Config.ConnState = s.count
	s.TLS = ca.ServerConfig(t, names...)
	s.TLS.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		s.mu.Lock()
		s.hellos = append(s.hellos, hello)
		s.mu.Unlock()
		return nil, nil
	}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *tlsServer) lastHello() *tls.ClientHelloInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hellos[len(s.hellos)-1]
}

// trusting is client options that trust ca.
func trusting(ca *testca.CA) http1.Options {
	return http1.Options{TLS: &tls.Config{RootCAs: ca.Pool()}}
}

// Keep-alive works over TLS as over plain TCP: one connection, one
// handshake, for a hundred requests; and the client asks for HTTP/1.1 by
// ALPN, of a server that would rather speak HTTP/2.
func TestHTTPSKeepAlive(t *testing.T) {
	ca := testca.New(t)
	protos := make(chan string, 100)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos <- r.TLS.NegotiatedProtocol
		fmt.Fprintf(w, "page %s", r.URL.Path)
	}))
	l, c := onLoop(t, trusting(ca))
	for i := range 100 {
		r, err := get(t, l, c, fmt.Sprintf("%s/p%d", srv.URL, i))
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if string(r.Body) != fmt.Sprintf("page /p%d", i) || r.Reused != (i > 0) || (r.Timings.TLS > 0) != (i == 0) {
			t.Fatalf("request %d: %q, reused %v, handshake at %v", i, r.Body, r.Reused, r.Timings.TLS)
		}
		if p := <-protos; p != "http/1.1" {
			t.Fatalf("request %d came over ALPN protocol %q", i, p)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Fatalf("the server accepted %d connections for 100 requests, want 1", n)
	}
	if p := srv.lastHello().SupportedProtos; len(p) != 1 || p[0] != "http/1.1" {
		t.Fatalf("the client offered ALPN %q, want only http/1.1", p)
	}
}

// The client names the host it wants in its hello (SNI), so that a server
// with many sites can pick the certificate; for an address it names none,
// as RFC 6066 says, and the certificate's IP addresses are checked.
func TestSNIIsTheHostName(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l, c := onLoop(t, trusting(ca))
	for url, sni := range map[string]string{
		srv.URL: "",
		strings.Replace(srv.URL, "127.0.0.1", "localhost", 1): "localhost",
	} {
		if _, err := get(t, l, c, url); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if got := srv.lastHello().ServerName; got != sni {
			t.Fatalf("%s: the server was asked for %q, want %q", url, got, sni)
		}
	}
}

// Each host's connections have a config of their own, not one shared
// config whose ServerName the last host named: two hosts asked at once,
// before either has dialled, still each send their own name in the hello
// (none for the address).
func TestTwoHostsAtOnceEachSendTheirOwnName(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l, c := onLoop(t, trusting(ca))
	byName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	fs := []*future.Future[*http1.Reply]{c.Do(http1.Request{URL: srv.URL}), c.Do(http1.Request{URL: byName})}
	for i, f := range fs {
		if _, err := await(t, l, f); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	var names []string
	for _, h := range srv.hellos {
		names = append(names, h.ServerName)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"", "localhost"}) {
		t.Fatalf("the server was asked for %q, want [\"\" localhost]: one hello per host, each with its own name", names)
	}
}

// The caller's tls.Config is copied, not changed: the client's ALPN
// ("http/1.1" only) and its session cache go into its own copy, so a
// config the program shares with others (an HTTP/2 client offering "h2",
// one that wants no resumption) keeps what it had, before and after a
// request over TLS.
func TestTheCallersTLSConfigIsLeftAsItWas(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	cfg := &tls.Config{RootCAs: ca.Pool(), NextProtos: []string{"h2", "http/1.1"}}
	check := func(when string) {
		t.Helper()
		if !slices.Equal(cfg.NextProtos, []string{"h2", "http/1.1"}) || cfg.ClientSessionCache != nil || cfg.ServerName != "" {
			t.Fatalf("%s, the caller's config has NextProtos %q, ClientSessionCache %v, ServerName %q; want them as given: [h2 http/1.1], nil, \"\"",
				when, cfg.NextProtos, cfg.ClientSessionCache, cfg.ServerName)
		}
	}
	l, c := onLoop(t, http1.Options{TLS: cfg})
	check("after NewClient")
	if _, err := get(t, l, c, srv.URL); err != nil {
		t.Fatal(err)
	}
	check("after a request")
	// The client's own copy says what it speaks.
	if p := srv.lastHello().SupportedProtos; !slices.Equal(p, []string{"http/1.1"}) {
		t.Fatalf("the client offered ALPN %q, want only http/1.1", p)
	}
}

// A certificate the client cannot trust fails the request with an error
// that says which host, and why, as x509 puts it: a crawler's record of
// it must be clear enough to act on.
func TestCertificateErrorsNameTheHost(t *testing.T) {
	ca := testca.New(t)
	srv := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	other := newTLSServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), "other.example")
	host := strings.TrimPrefix(srv.URL, "https://")
	cases := []struct {
		name, url string
		opts      http1.Options
		want      string
	}{
		{"an authority the system does not trust", srv.URL, http1.Options{},
			"http1: TLS handshake with " + host + ": tls: failed to verify certificate: x509: certificate signed by unknown authority"},
		{"another host's certificate", strings.Replace(other.URL, "127.0.0.1", "localhost", 1), trusting(ca),
			"x509: certificate is valid for other.example, not localhost"},
		{"an address the certificate does not name", other.URL, trusting(ca),
			"x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs"},
	}
	for _, tc := range cases {
		l, c := onLoop(t, tc.opts)
		_, err := get(t, l, c, tc.url)
		var te *http1.TLSError
		if !errors.As(err, &te) || !te.Certificate() || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a certificate error saying %q", tc.name, err, tc.want)
		}
	}
	// Told not to check (only ever for testing), the client goes on.
	l, c := onLoop(t, http1.Options{TLS: &tls.Config{InsecureSkipVerify: true}})
	if _, err := get(t, l, c, other.URL); err != nil {
		t.Fatalf("InsecureSkipVerify: %v", err)
	}
}

// A plain HTTP server on an https URL: the handshake fails, and says so
// with the host, as a TLS error that is not about a certificate.
func TestHTTPSToAPlainServer(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l, c := onLoop(t, http1.Options{})
	_, err := get(t, l, c, strings.Replace(srv.URL, "http:", "https:", 1))
	var te *http1.TLSError
	if !errors.As(err, &te) || te.Certificate() || !strings.Contains(err.Error(), "does not look like a TLS handshake") {
		t.Fatalf("got %v, want a TLS error", err)
	}
}

// http and https to one host and port are two pools: a connection speaks
// one or the other. An idle plain connection is not handed to an https
// request, which dials its own and fails its handshake against the plain
// server, as if the first had never been.
func TestHTTPAndHTTPSToOnePortAreTwoPools(t *testing.T) {
	srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	l, c := onLoop(t, http1.Options{})
	if r, err := get(t, l, c, srv.URL); err != nil || string(r.Body) != "ok" {
		t.Fatalf("http: %v", err)
	}
	r, err := get(t, l, c, strings.Replace(srv.URL, "http:", "https:", 1))
	var te *http1.TLSError
	if !errors.As(err, &te) {
		t.Fatalf("https after http on one port: %+v, %v; want a TLS error from a connection of its own", r, err)
	}
	if n := srv.conns.Load(); n != 2 {
		t.Fatalf("the server accepted %d connections, want 2: one per scheme", n)
	}
}

// A TLS error's message quotes crypto/tls, whose words may quote the
// server's certificate: a name there with an escape sequence or a newline
// comes out escaped, so that printing the error cannot rewrite a terminal
// or forge a line of a log.
func TestTLSErrorEscapesTheServersWords(t *testing.T) {
	err := &http1.TLSError{Host: "example.com", Err: errors.New("x509: certificate is valid for a\x1b[2Jb\nforged, not example.com")}
	want := `http1: TLS handshake with example.com: x509: certificate is valid for a\x1b[2Jb\nforged, not example.com`
	if got := err.Error(); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
