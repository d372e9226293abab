package crawler

// Record is what the crawler learnt about one fetched URL: the chapter's
// FetchStatistic, plus depth, tries and time. One record per URL, written
// as a JSON line with -o. Status is nil, and Exception set, when no
// response came at all.
type Record struct {
	URL         string  `json:"url"`
	NextURL     *string `json:"next_url"`  // a redirect's target
	Status      *int    `json:"status"`    // nil when no response came
	Exception   *string `json:"exception"` // what went wrong, if anything
	Size        int     `json:"size"`
	ContentType string  `json:"content_type"` // media type, no parameters
	Encoding    string  `json:"encoding"`     // charset used to decode the body
	NumURLs     int     `json:"num_urls"`     // links that passed the filters
	NumNewURLs  int     `json:"num_new_urls"` // of those, not seen before
	Depth       int     `json:"depth"`
	Tries       int     `json:"tries"`
	ElapsedMS   float64 `json:"elapsed_ms"`
}

func ptr[T any](v T) *T { return &v }

// kind classifies a record the way the chapter's report does.
func (r *Record) kind() string {
	switch {
	case r.Exception != nil && r.Status == nil:
		return "fail"
	case r.NextURL != nil:
		return "redirect"
	case r.ContentType == "text/html" || r.ContentType == "application/xhtml+xml":
		return "html"
	case r.Status != nil && *r.Status == 200:
		return "other"
	default:
		return "error"
	}
}
