package main

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
)

// Every flag's default, as documented in its usage line, reaches
// crawler.Config (or options) as that value.
func TestFlagDefaultsReachTheConfig(t *testing.T) {
	o, roots, err := parseFlags([]string{"example.invalid"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 1 || roots[0] != "example.invalid" {
		t.Fatalf("roots %v", roots)
	}
	c := o.cfg
	for name, tc := range map[string]struct{ got, want any }{
		"max_tasks":          {c.MaxTasks, 100},
		"max_redirect":       {c.MaxRedirect, 10},
		"max_tries":          {c.MaxTries, 4},
		"exclude":            {c.Exclude == nil, true},
		"lenient":            {c.Lenient, false},
		"v":                  {o.verbose, 0},
		"q":                  {o.quiet, false},
		"o":                  {c.Output, ""},
		"state":              {c.State, ""},
		"redis":              {o.redis, ""},
		"crawl_id":           {o.crawlID, ""},
		"shards":             {o.shards, 16},
		"lease":              {o.lease, 3 * time.Second},
		"state_reuse":        {c.StateReuse, false},
		"trace":              {o.trace, ""},
		"trace_events":       {o.events, ""},
		"timeline":           {o.timeline, ""},
		"cpuprofile":         {o.profile, ""},
		"poller":             {o.poller, ""},
		"loops":              {o.loops, crawler.DefaultLoops()},
		"parse_workers":      {c.ParseWorkers, runtime.GOMAXPROCS(0)},
		"demo_pages":         {o.demo.Pages, 0},
		"demo_hosts":         {o.demo.Hosts, 0},
		"demo_page_bytes":    {o.demo.PageBytes, 0},
		"per_host":           {c.PerHost, 8},
		"delay":              {c.Delay, time.Duration(0)},
		"jitter":             {c.Jitter, false},
		"user_agent":         {c.UserAgent, crawler.DefaultUserAgent},
		"robots":             {c.NoRobots, false},
		"max_pages":          {c.MaxPages, 0},
		"max_depth":          {c.MaxDepth, 0},
		"max_pages_per_host": {c.MaxPagesPerHost, 0},
		"max_query_variants": {c.MaxQueryVariants, 1000},
		"max_url_length":     {c.MaxURLLength, 2083},
		"max_retry_after":    {c.MaxRetryAfter, 10 * time.Minute},
		"all_bodies":         {c.AllBodies, false},
		"queue_memory":       {c.QueueMemory, 100000},
		"seen_memory":        {c.SeenMemory, 1000000},
		"report_urls":        {c.ReportURLs, 10000},
		"connect_timeout":    {c.HTTP.ConnectTimeout, 10 * time.Second},
		"read_timeout":       {c.HTTP.ReadTimeout, 30 * time.Second},
		"write_timeout":      {c.HTTP.WriteTimeout, 10 * time.Second},
		"pool_timeout":       {c.HTTP.PoolTimeout, 30 * time.Second},
		"timeout":            {c.HTTP.TotalTimeout, 2 * time.Minute},
		"header_timeout":     {c.HTTP.HeaderTimeout, time.Duration(0)},
		"handshake_timeout":  {c.HTTP.HandshakeTimeout, 10 * time.Second},
		"insecure":           {o.insecure, false},
		"tls":                {c.HTTP.TLS == nil, true},
		"max_body":           {c.HTTP.Limits.MaxBodyBytes, int64(10 << 20)},
	} {
		if tc.got != tc.want {
			t.Errorf("--%s: default %v, want %v", name, tc.got, tc.want)
		}
	}
}

// Each flag given a value reaches its own field with that value, not
// another's: a flag bound to the wrong field, or a value dropped.
func TestFlagValuesReachTheirFields(t *testing.T) {
	o, _, err := parseFlags([]string{
		"--max_tasks", "7", "--max_redirect", "3", "--max_tries", "2", "--exclude", "a+b",
		"-v", "-v", "-q", "-o", "out.jsonl", "--state_reuse",
		"--trace", "t.jsonl", "--trace_events", "e.json", "--timeline", "l.svg", "--cpuprofile", "p.out",
		"--poller", "poll", "--loops", "3", "--parse_workers", "5",
		"--demo_pages", "11", "--demo_hosts", "2", "--demo_page_bytes", "4000",
		"--per_host", "6", "--delay", "250ms", "--jitter", "--user_agent", "me (me@example.invalid)",
		"--robots=false", "--max_pages", "12", "--max_depth", "13", "--max_pages_per_host", "14",
		"--max_query_variants", "15", "--max_url_length", "16", "--max_retry_after", "17s", "--all_bodies",
		"--queue_memory", "18", "--seen_memory", "19", "--report_urls", "20",
		"--connect_timeout", "21s", "--read_timeout", "22s", "--write_timeout", "23s", "--pool_timeout", "24s",
		"--timeout", "25s", "--header_timeout", "26s", "--handshake_timeout", "27s", "--insecure", "--max_body", "28",
		"example.invalid"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c := o.cfg
	for name, tc := range map[string]struct{ got, want any }{
		"max_tasks":          {c.MaxTasks, 7},
		"max_redirect":       {c.MaxRedirect, 3},
		"max_tries":          {c.MaxTries, 2},
		"v":                  {o.verbose, 2},
		"q":                  {o.quiet, true},
		"o":                  {c.Output, "out.jsonl"},
		"state_reuse":        {c.StateReuse, true},
		"trace":              {o.trace, "t.jsonl"},
		"trace_events":       {o.events, "e.json"},
		"timeline":           {o.timeline, "l.svg"},
		"cpuprofile":         {o.profile, "p.out"},
		"poller":             {o.poller, "poll"},
		"loops":              {o.loops, 3},
		"parse_workers":      {c.ParseWorkers, 5},
		"demo_pages":         {o.demo.Pages, 11},
		"demo_hosts":         {o.demo.Hosts, 2},
		"demo_page_bytes":    {o.demo.PageBytes, 4000},
		"per_host":           {c.PerHost, 6},
		"delay":              {c.Delay, 250 * time.Millisecond},
		"jitter":             {c.Jitter, true},
		"user_agent":         {c.UserAgent, "me (me@example.invalid)"},
		"robots":             {c.NoRobots, true},
		"max_pages":          {c.MaxPages, 12},
		"max_depth":          {c.MaxDepth, 13},
		"max_pages_per_host": {c.MaxPagesPerHost, 14},
		"max_query_variants": {c.MaxQueryVariants, 15},
		"max_url_length":     {c.MaxURLLength, 16},
		"max_retry_after":    {c.MaxRetryAfter, 17 * time.Second},
		"all_bodies":         {c.AllBodies, true},
		"queue_memory":       {c.QueueMemory, 18},
		"seen_memory":        {c.SeenMemory, 19},
		"report_urls":        {c.ReportURLs, 20},
		"connect_timeout":    {c.HTTP.ConnectTimeout, 21 * time.Second},
		"read_timeout":       {c.HTTP.ReadTimeout, 22 * time.Second},
		"write_timeout":      {c.HTTP.WriteTimeout, 23 * time.Second},
		"pool_timeout":       {c.HTTP.PoolTimeout, 24 * time.Second},
		"timeout":            {c.HTTP.TotalTimeout, 25 * time.Second},
		"header_timeout":     {c.HTTP.HeaderTimeout, 26 * time.Second},
		"handshake_timeout":  {c.HTTP.HandshakeTimeout, 27 * time.Second},
		"insecure":           {o.insecure, true},
		"tls":                {c.HTTP.TLS != nil && c.HTTP.TLS.InsecureSkipVerify, true},
		"max_body":           {c.HTTP.Limits.MaxBodyBytes, int64(28)},
	} {
		if tc.got != tc.want {
			t.Errorf("--%s: got %v, want %v", name, tc.got, tc.want)
		}
	}
	if c.Exclude == nil || c.Exclude.String() != "a+b" || !c.Exclude.MatchString("xaab") || c.Exclude.MatchString("xb") {
		t.Errorf("--exclude a+b: got %v", c.Exclude)
	}
}

// -v counts: repeated, or given a number; a negative or non-numeric
// count is refused.
func TestVerboseCounts(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"-v"}, 1},
		{[]string{"-v", "-v", "-v"}, 3},
		{[]string{"-v=2"}, 2},
		{[]string{"-v=0"}, 0},
		{[]string{"-v=2", "-v"}, 3},
	} {
		o, _, err := parseFlags(append(tc.args, "example.invalid"), io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if o.verbose != tc.want {
			t.Errorf("%v: verbose %d, want %d", tc.args, o.verbose, tc.want)
		}
	}
	for _, bad := range []string{"-v=-1", "-v=x"} {
		if _, _, err := parseFlags([]string{bad, "example.invalid"}, io.Discard); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// Each refusal is at its documented boundary: the last value refused and
// the first accepted, for every checked flag.
func TestFlagRefusalsAreAtTheirBoundaries(t *testing.T) {
	redis := []string{"--redis", "redis://127.0.0.1:1/0", "--crawl_id", "c"}
	for _, tc := range []struct {
		refused, accepted []string
		says              string
	}{
		{[]string{"--max_tasks", "0"}, []string{"--max_tasks", "1"}, "--max_tasks"},
		{[]string{"--max_tries", "0"}, []string{"--max_tries", "1"}, "--max_tries"},
		{[]string{"--max_redirect", "-1"}, []string{"--max_redirect", "0"}, "--max_redirect"},
		{[]string{"--per_host", "0"}, []string{"--per_host", "1"}, "--per_host"},
		{[]string{"--max_pages", "-1"}, []string{"--max_pages", "0"}, "--max_pages"},
		{[]string{"--max_depth", "-1"}, []string{"--max_depth", "0"}, "--max_depth"},
		{[]string{"--delay", "-1ns"}, []string{"--delay", "0s"}, "--delay"},
		{[]string{"--max_pages_per_host", "-1"}, []string{"--max_pages_per_host", "0"}, "--max_pages_per_host"},
		{[]string{"--max_query_variants", "-1"}, []string{"--max_query_variants", "0"}, "--max_query_variants"},
		{[]string{"--max_url_length", "0"}, []string{"--max_url_length", "1"}, "--max_url_length"},
		{[]string{"--max_retry_after", "0s"}, []string{"--max_retry_after", "1ns"}, "--max_retry_after"},
		{[]string{"--report_urls", "-1"}, []string{"--report_urls", "0"}, "--report_urls"},
		{[]string{"--queue_memory", "-1"}, []string{"--queue_memory", "0"}, "--queue_memory"},
		{[]string{"--seen_memory", "-1"}, []string{"--seen_memory", "0"}, "--seen_memory"},
		{[]string{"--loops", "0"}, []string{"--loops", "1"}, "--loops"},
		{[]string{"--loops", "257"}, []string{"--loops", "256"}, "--loops"},
		{[]string{"--parse_workers", "-1"}, []string{"--parse_workers", "0"}, "--parse_workers"},
		{[]string{"--demo_pages", "-1"}, []string{"--demo_pages", "0"}, "--demo_pages"},
		{[]string{"--demo_hosts", "-1"}, []string{"--demo_hosts", "0"}, "--demo_hosts"},
		{[]string{"--demo_page_bytes", "-1"}, []string{"--demo_page_bytes", "0"}, "--demo_page_bytes"},
		{[]string{"--redis", "redis://127.0.0.1:1/0"}, append([]string{}, redis...), "--crawl_id"},
		{append([]string{"--state", "dir"}, redis...), append([]string{"-o", "out"}, redis...), "--state"},
		{append([]string{"--loops", "2"}, redis...), append([]string{"--loops", "1"}, redis...), "one loop"},
		{append([]string{"--shards", "0"}, redis...), append([]string{"--shards", "1"}, redis...), "--shards"},
		{append([]string{"--shards", "4097"}, redis...), append([]string{"--shards", "4096"}, redis...), "--shards"},
		{append([]string{"--lease", "499ms"}, redis...), append([]string{"--lease", "500ms"}, redis...), "--lease"},
	} {
		_, _, err := parseFlags(append(tc.refused, "example.invalid"), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: error %v, want one naming %s", tc.refused, err, tc.says)
		}
		if _, _, err := parseFlags(append(tc.accepted, "example.invalid"), io.Discard); err != nil {
			t.Errorf("%v: refused: %v", tc.accepted, err)
		}
	}
}

// With --redis a process runs one loop, whatever --loops defaults to
// (here four, as on four processors), and a default --loops is not
// taken for a given one; --shards and --lease reach the fleet's options.
func TestRedisRunsOneLoop(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	if crawler.DefaultLoops() < 2 {
		t.Fatalf("DefaultLoops %d on 4 processors: the test shows nothing", crawler.DefaultLoops())
	}
	o, _, err := parseFlags([]string{"--redis", "redis://127.0.0.1:1/0", "--crawl_id", "c", "--shards", "5", "--lease", "2s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.loops != 1 || o.redis != "redis://127.0.0.1:1/0" || o.crawlID != "c" || o.shards != 5 || o.lease != 2*time.Second {
		t.Fatalf("loops %d, redis %q, crawl_id %q, shards %d, lease %v", o.loops, o.redis, o.crawlID, o.shards, o.lease)
	}
}
