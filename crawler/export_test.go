package crawler

import "net/url"

// Diff and Head are diff and head (seen_internal_test.go).
var Diff, Head = diff, head

// LoopOf is the index of the loop of a Group of loops that owns rawURL's
// server. Servers go to loops by a hash seeded anew in each process, so
// a test that needs its hosts spread over the loops asks.
func LoopOf(rawURL string, loops int) int {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	return ownerOf(u, loops)
}

// FoldJournalEvery makes a crawl's journal fold into a snapshot every n
// bytes (journal.Options.FoldMin), for a test, until it ends. It sets a
// package variable, so a test that calls it must not be parallel.
func FoldJournalEvery(t interface{ Cleanup(func()) }, n int64) {
	was := journalFoldMin
	journalFoldMin = n
	t.Cleanup(func() { journalFoldMin = was })
}
