package main

import (
	"bytes"
	"strings"
	"testing"
)

// flagWords says each Config and Options field as the very flag that sets
// it, and that flag is one crawl -h lists: Config.StateReuse is not read
// as Config.State and "Reuse", nor Config.MaxPagesPerHost as
// Config.MaxPages and "PerHost".
func TestFlagWordsNameTheFlagThatSetsTheField(t *testing.T) {
	var help bytes.Buffer
	if _, _, err := parseFlags([]string{"-h"}, &help); err == nil {
		t.Fatal("-h: no flag.ErrHelp")
	}
	for field, flag := range map[string]string{
		"Options.Redis": "--redis", "Options.CrawlID": "--crawl_id", "Options.Shards": "--shards", "Options.Lease": "--lease",
		"Config.StateReuse": "--state_reuse", "Config.State": "--state", "Config.Output": "-o",
		"Config.MaxPagesPerHost": "--max_pages_per_host", "Config.MaxPages": "--max_pages",
		"Config.MaxQueryVariants": "--max_query_variants", "Config.MaxRetryAfter": "--max_retry_after",
		"Config.MaxRedirect": "--max_redirect", "Config.MaxDepth": "--max_depth", "Config.MaxURLLength": "--max_url_length",
		"Config.MaxTasks": "--max_tasks", "Config.MaxTries": "--max_tries", "Config.ReportURLs": "--report_urls",
		"Config.QueueMemory": "--queue_memory", "Config.SeenMemory": "--seen_memory", "Config.Exclude": "--exclude",
		"Config.Lenient": "--lenient", "Config.NoRobots": "--robots=false", "Config.AllBodies": "--all_bodies",
		"Config.PerHost": "--per_host", "Config.Delay": "--delay", "Config.Jitter": "--jitter", "Config.UserAgent": "--user_agent",
	} {
		msg := "set " + field + " lower"
		if got, want := flagWords.Replace(msg), "set "+flag+" lower"; got != want {
			t.Errorf("%q said as %q, want %q", msg, got, want)
		}
		name := strings.TrimLeft(strings.TrimSuffix(flag, "=false"), "-")
		if !strings.Contains(help.String(), "\n  -"+name+" ") && !strings.Contains(help.String(), "\n  -"+name+"\n") {
			t.Errorf("%s: crawl -h lists no flag -%s", flag, name)
		}
	}
}
