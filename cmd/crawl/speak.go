package main

import "strings"

// The library speaks of its settings by their Config fields
// ("Config.MaxPagesPerHost reached"), and crawler/fleet by its Options
// fields ("Options.CrawlID"); the command speaks of its flags. flagWords
// turns the one into the other in what the command prints on stderr:
// notices and errors. Longer names come first, so that Config.StateReuse
// is not read as Config.State and "Reuse".
var flagWords = strings.NewReplacer(
	"Options.Redis", "--redis",
	"Options.CrawlID", "--crawl_id",
	"Options.Shards", "--shards",
	"Options.Lease", "--lease",
	"Config.StateReuse", "--state_reuse",
	"Config.State", "--state",
	"Config.Output", "-o",
	"Config.MaxPagesPerHost", "--max_pages_per_host",
	"Config.MaxPages", "--max_pages",
	"Config.MaxQueryVariants", "--max_query_variants",
	"Config.MaxRetryAfter", "--max_retry_after",
	"Config.MaxRedirect", "--max_redirect",
	"Config.MaxDepth", "--max_depth",
	"Config.MaxURLLength", "--max_url_length",
	"Config.MaxTasks", "--max_tasks",
	"Config.MaxTries", "--max_tries",
	"Config.ReportURLs", "--report_urls",
	"Config.QueueMemory", "--queue_memory",
	"Config.SeenMemory", "--seen_memory",
	"Config.Exclude", "--exclude",
	"Config.Lenient", "--lenient",
	"Config.NoRobots", "--robots=false",
	"Config.AllBodies", "--all_bodies",
	"Config.PerHost", "--per_host",
	"Config.Delay", "--delay",
	"Config.Jitter", "--jitter",
	"Config.UserAgent", "--user_agent",
)
