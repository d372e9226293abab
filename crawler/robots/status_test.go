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
	if s := Decision(42).String(); s != "robots.Decision(?)" {
		t.Errorf("Decision(42).String() = %q", s)
	}
}
