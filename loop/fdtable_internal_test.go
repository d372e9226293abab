package loop

import "testing"

// The fd table answers nil for any fd it holds nothing for — negative,
// past its end, removed — and keeps what it holds as it grows. Checked by
// hand: a get without its bounds check panics on -1 and 1000.
func TestFDTable(t *testing.T) {
	var tab fdTable
	a, b := &watch{fd: 3}, &watch{fd: 700}
	tab.set(3, a)
	tab.set(700, b) // grows past its first size
	for fd, want := range map[int]*watch{-1: nil, 0: nil, 3: a, 4: nil, 700: b, 1000: nil} {
		if got := tab.get(fd); got != want {
			t.Errorf("get(%d) = %v, want %v", fd, got, want)
		}
	}
	tab.remove(3)
	tab.remove(-5)   // nothing there: no panic
	tab.remove(5000) // nor here
	if tab.get(3) != nil || tab.get(700) != b {
		t.Errorf("after remove(3): get(3) = %v, get(700) = %v", tab.get(3), tab.get(700))
	}
}
