package harness

import (
	"slices"
	"strings"
	"testing"

	"loopkit/bench/report"
)

// The check of -o: the same site on other ports gives the same keys, and
// every way a crawl can go wrong is counted as what it is. Checked by
// hand: keying URLs as written (ports and all) fails the first part, and
// a compare that skips the repeat case fails the second.
func TestKeySetsCountMissingExtraAndRepeatedURLs(t *testing.T) {
	here := newKeyer([]string{"http://127.0.0.1:4000/", "http://127.0.0.1:4001/"})
	there := newKeyer([]string{"http://127.0.0.1:5000/", "http://127.0.0.1:5001/"})
	if here.key("http://127.0.0.1:4001/a?b=1") != there.key("http://127.0.0.1:5001/a?b=1") {
		t.Error("the same page of the same host keyed differently on other ports")
	}
	if here.key("http://127.0.0.1:4000/a") == here.key("http://127.0.0.1:4001/a") {
		t.Error("the same path on two hosts keyed alike")
	}
	if here.key("http://127.0.0.1:5000/a") == there.key("http://127.0.0.1:5000/a") {
		t.Error("a URL off the site keyed as a page of one of its hosts")
	}
	keys := func(paths ...string) []urlKey {
		var out []urlKey
		for _, p := range paths {
			out = append(out, here.key("http://127.0.0.1:4000"+p))
		}
		slices.SortFunc(out, compareKeys)
		return out
	}
	want := keys("/", "/a", "/b", "/c")
	if c := compareKeySets(keys("/c", "/b", "/a", "/"), want, 0); !c.same() || c.lines != 4 {
		t.Errorf("the same set: %+v", c)
	}
	c := compareKeySets(keys("/", "/a", "/a", "/a", "/x"), want, 1)
	if c != (setCheck{lines: 6, bad: 1, missing: 2, extra: 1, repeat: 2}) || c.same() {
		t.Errorf("got %+v", c)
	}
	if s := c.String(); !strings.HasPrefix(s, "DIFFERS: 6 lines; 2 of the site's URLs missing, 1 not the site's, 2 repeated, 1 not a record") {
		t.Errorf("said %q", s)
	}
}

// A crawl that dies says why in one line of the table: the first line of
// what it printed and, for a panic, where in loopkit. Checked by hand:
// cutting at the first line only fails it.
func TestOneLineOfAChildsPanic(t *testing.T) {
	msg := "the crawl: exit status 2: panic: runtime error: invalid memory address\n" +
		"[signal SIGSEGV: segmentation violation]\n\ngoroutine 1 [running]:\n" +
		"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n" +
		"loopkit/crawler.(*store).openSpill(0x0, {0x27fa0e92dd80?, 0x1095?})\n\t/x/crawler/persist.go:188 +0x42\n"
	want := "the crawl: exit status 2: panic: runtime error: invalid memory address (in loopkit/crawler.(*store).openSpill)"
	if got := oneLine(msg); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := oneLine("exit status 1: -o: no room left\n"); got != "exit status 1: -o: no room left" {
		t.Errorf("got %q", got)
	}
}

// Ten million pages are judged against the million of the same run: the
// peak RSS at most 1.3 times, the speed at least 0.8 times, the restart's
// first request within 5 s, and -o exactly the site's URLs in both cases.
// Checked by hand: comparing the speed the other way round (1M over 10M)
// fails the second case.
func TestTenMillionPagesAreJudgedAgainstAMillion(t *testing.T) {
	row := func(variant string, rss, pagesPerSecond, first float64, check string) report.Row {
		return report.Row{Variant: variant, Check: check, Metrics: map[string]report.Summary{
			"rss_mib": report.Summarize([]float64{rss}), "pages_s": report.Summarize([]float64{pagesPerSecond}),
			"first_s": report.Summarize([]float64{first})}}
	}
	scenario := func(rss, speed, first float64, again string) report.Scenario {
		return report.Scenario{ID: "S7", Cases: []report.Case{
			{Label: sizeLabel(1_000_000), Rows: []report.Row{row(crawlVariant, 80, 20_000, 0.01, "the site's 1,000,033 URLs, each once")}},
			{Label: sizeLabel(10_000_000), Rows: []report.Row{row(crawlVariant, rss, speed, 0.01, "the site's 10,000,033 URLs, each once; ...")}},
			{Label: sizeLabel(10_000_000) + ", --state, killed at half, then run again", Rows: []report.Row{
				row(killedVariant, 90, 15_000, 0.01, "killed"), row(resumedVariant, 90, 15_000, first, again)}},
		}}
	}
	met := func(sc report.Scenario) (out []bool) {
		for _, tg := range millionTargets(sc) {
			if strings.Contains(tg.What, "10,000,000") || strings.HasPrefix(tg.What, "… and -o") {
				out = append(out, tg.Met)
			}
		}
		return out
	}
	ok := "both runs' -o: the site's 10,000,033 URLs, each once; the site served ..."
	for _, c := range []struct {
		rss, speed, first float64
		again             string
		want              []bool // RSS, speed, -o, first request, -o over both runs
	}{
		{100, 17_000, 3.2, ok, []bool{true, true, true, true, true}},
		{110, 15_000, 6.1, "both runs' -o: DIFFERS: 10,000,030 lines; 3 missing", []bool{false, false, true, false, false}},
	} {
		if got := met(scenario(c.rss, c.speed, c.first, c.again)); !slices.Equal(got, c.want) {
			t.Errorf("RSS %v MiB, %v pages/s, first request %v s, %q: met %v, want %v", c.rss, c.speed, c.first, c.again, got, c.want)
		}
	}
}
