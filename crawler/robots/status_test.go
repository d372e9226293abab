package robots

import "testing"

func TestForStatus(t *testing.T) {
	tests := []struct {
		status int
		want   Decision
	}{
		{200, UseBody},
		{204, UseBody},
		{299, UseBody},
		{301, FollowRedirect},
		{302, FollowRedirect},
		{307, FollowRedirect},
		{308, FollowRedirect},
		{300, FollowRedirect},
		{399, FollowRedirect}, // any 3xx, known or not
		{400, Unavailable},
		{401, Unavailable},
		{403, Unavailable},
		{404, Unavailable},
		{410, Unavailable},
		{429, Unreachable}, // "slow down" is not "no rules"
		{500, Unreachable},
		{503, Unreachable},
		{599, Unreachable},
		{0, Unreachable},
		{100, Unreachable},
		{199, Unreachable},
		{499, Unavailable},
		{428, Unavailable},
		{430, Unavailable},
		{600, Unreachable},
	}
	for _, tt := range tests {
		if got := ForStatus(tt.status); got != tt.want {
			t.Errorf("ForStatus(%d) = %v, want %v", tt.status, got, tt.want)
		}
	}
}

func TestDecisionString(t *testing.T) {
	if s := Unreachable.String(); s != "unreachable: disallow all" {
		t.Errorf("Unreachable.String() = %q", s)
	}
	for _, d := range []Decision{-1, 4, 42} {
		if s := d.String(); s != "robots.Decision(?)" {
			t.Errorf("Decision(%d).String() = %q", int(d), s)
		}
	}
}

// TestMaxRedirectsIsFive: RFC 9309 §2.3.1.2 asks for at least five
// redirects in a row, and the doc promises five.
func TestMaxRedirectsIsFive(t *testing.T) {
	if MaxRedirects != 5 {
		t.Errorf("MaxRedirects = %d, want 5", MaxRedirects)
	}
}
