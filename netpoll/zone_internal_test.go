package netpoll

import (
	"net/netip"
	"testing"

	"golang.org/x/sys/unix"
)

// A numeric zone of an IPv6 address (link-local fe80::1%2) reaches the
// socket address as its interface index; an IPv4 address, or a mapped
// one, gives an IPv4 socket address.
func TestSockaddrKeepsANumericZone(t *testing.T) {
	sa, ok := sockaddr(netip.MustParseAddrPort("[fe80::1%2]:80")).(*unix.SockaddrInet6)
	if !ok || sa.ZoneId != 2 || sa.Port != 80 {
		t.Fatalf("sockaddr of [fe80::1%%2]:80 = %+v", sa)
	}
	if _, ok := sockaddr(netip.MustParseAddrPort("[::ffff:127.0.0.1]:80")).(*unix.SockaddrInet4); !ok {
		t.Fatal("a mapped address gave an IPv6 socket address")
	}
}
