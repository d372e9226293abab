package site_test

import (
	"fmt"
	"log"
	"net/http"

	"loopkit/site"
)

// Start a small site, fetch its home page, and ask what a crawler should fetch and what
// the server saw.
func Example() {
	s, err := site.Start(site.Config{Pages: 50, Seed: 1}, "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	resp, err := http.Get(s.URL())
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println("home page:", resp.Status)

	all, polite := s.Expected(false), s.Expected(true)
	fmt.Println("URLs a strict crawler fetches:", len(all))
	fmt.Println("of which robots.txt disallows:", len(all)-len(polite))
	fmt.Println("requests the server saw:", s.Stats().Requests)
	// Output:
	// home page: 200 OK
	// URLs a strict crawler fetches: 67
	// of which robots.txt disallows: 3
	// requests the server saw: 1
}
