package resp_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The chapter that teaches this package, docs/resp.md, quotes its code.
// Each ```go block starts with "// from FILE" and must appear in FILE
// verbatim (parts separated by a "// ..." line, in order), so a change
// to the code that the chapter quotes fails here until the chapter
// follows. The tutorial's own chapters are checked the same way by
// docs/stages.
const chapter = "../../docs/resp.md"

func TestChapterQuotesItsCode(t *testing.T) {
	text, err := os.ReadFile(chapter)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	quotes := 0
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```go" {
			continue
		}
		start := i + 1
		from, ok := strings.CutPrefix(lines[start], "// from ")
		if !ok {
			t.Errorf("docs/resp.md:%d: a go block must start with \"// from <file>\"", start+1)
			continue
		}
		end := start + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		i = end
		quotes++
		src, err := os.ReadFile(filepath.Join("../..", from))
		if err != nil {
			t.Errorf("docs/resp.md:%d: %v", start+1, err)
			continue
		}
		rest := "\n" + string(src)
		for _, part := range strings.Split(strings.Join(lines[start+1:end], "\n")+"\n", "// ...\n") {
			at := strings.Index(rest, "\n"+part)
			if at < 0 {
				t.Errorf("docs/resp.md:%d: not in %s (or not in this order):\n%s", start+1, from, part)
				break
			}
			rest = rest[at+len(part):]
		}
	}
	if quotes == 0 {
		t.Error("no quotations found in docs/resp.md")
	}
}

// Every relative link of the chapter points to a file.
func TestChapterLinksPointToFiles(t *testing.T) {
	text, err := os.ReadFile(chapter)
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile("(?s)```.*?```|`[^`]*`").ReplaceAllString(string(text), "")
	for _, m := range regexp.MustCompile(`\]\(([^)\s#]+)`).FindAllStringSubmatch(prose, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("../../docs", m[1])); err != nil {
			t.Errorf("docs/resp.md links to %s: %v", m[1], err)
		}
	}
}
