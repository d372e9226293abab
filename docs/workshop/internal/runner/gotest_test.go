package runner

import (
	"slices"
	"strings"
	"testing"
)

// A trimmed `go test -json` run over three packages: one passes, one has
// a failing test (with a subtest, which does not count on its own), one
// does not build. Go's own messages, not JSON, are mixed in.
const sampleJSON = `{"Action":"start","Package":"loopkit/docs/workshop/a"}
{"Action":"run","Package":"loopkit/docs/workshop/a","Test":"TestOne"}
{"Action":"pass","Package":"loopkit/docs/workshop/a","Test":"TestOne"}
{"Action":"pass","Package":"loopkit/docs/workshop/a"}
{"Action":"run","Package":"loopkit/docs/workshop/b","Test":"TestOne"}
{"Action":"pass","Package":"loopkit/docs/workshop/b","Test":"TestOne"}
{"Action":"run","Package":"loopkit/docs/workshop/b","Test":"TestTwo"}
{"Action":"fail","Package":"loopkit/docs/workshop/b","Test":"TestTwo/sub"}
{"Action":"output","Package":"loopkit/docs/workshop/b","Test":"TestTwo","Output":"--- FAIL: TestTwo\n"}
{"Action":"fail","Package":"loopkit/docs/workshop/b","Test":"TestTwo"}
{"Action":"fail","Package":"loopkit/docs/workshop/b"}
# loopkit/docs/workshop/c
docs/workshop/c/exercise.go:3:1: syntax error
{"Action":"output","Package":"loopkit/docs/workshop/c","Output":"FAIL\tloopkit/docs/workshop/c [build failed]\n"}
{"Action":"fail","Package":"loopkit/docs/workshop/c","FailedBuild":"loopkit/docs/workshop/c"}
`

func TestParseTestJSON(t *testing.T) {
	res, err := ParseTestJSON(strings.NewReader(sampleJSON))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := res["loopkit/docs/workshop/a"], res["loopkit/docs/workshop/b"], res["loopkit/docs/workshop/c"]
	if a == nil || b == nil || c == nil || len(res) != 3 {
		t.Fatalf("results for %d packages: %v", len(res), res)
	}
	if !a.Passed || a.Tests != 1 || a.Status() != "✓" || a.Why() != "" {
		t.Errorf("a = %+v; want passed, 1 test", *a)
	}
	if b.Passed || b.Tests != 2 || !slices.Equal(b.Failed, []string{"TestTwo"}) || b.Why() != "1 of 2 tests fail" {
		t.Errorf("b = %+v (%s); want failed, 2 tests, TestTwo failing", *b, b.Why())
	}
	if c.Passed || !c.BuildFailed || c.Why() != "does not build" || c.Status() != "✗" {
		t.Errorf("c = %+v; want a failed build", *c)
	}
}

// Before go 1.24, a failed build was only said in the package's output.
func TestParseTestJSONOlderBuildFailure(t *testing.T) {
	res, _ := ParseTestJSON(strings.NewReader(
		`{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}` + "\n" +
			`{"Action":"fail","Package":"p"}` + "\n"))
	if r := res["p"]; r == nil || !r.BuildFailed {
		t.Fatalf("result %+v; want a failed build", r)
	}
}

func TestWhyWithoutAFailingTest(t *testing.T) {
	if got := (Result{}).Why(); got != "tests did not run" {
		t.Errorf("Why of an empty result = %q", got)
	}
	if got := (Result{Ran: true, Tests: 3}).Why(); got != "fails" {
		t.Errorf("Why of a package that failed outside its tests = %q", got)
	}
}

func TestArgs(t *testing.T) {
	got := args(true, true, []Exercise{{Name: "echo"}, {Name: "wakeup"}})
	want := []string{"test", "-tags", "workshop", "-timeout", "120s", "-race", "-json",
		"loopkit/docs/workshop/echo", "loopkit/docs/workshop/wakeup"}
	if !slices.Equal(got, want) {
		t.Fatalf("args = %q\nwant %q", got, want)
	}
}
