package stages

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The documents whose quotations, links and names are checked, from the
// repository root; every exercise's README.md too (see allDocuments).
var documents = []string{
	"README.md",
	"docs/tutorial.md", "docs/kernel.md", "docs/coroutines.md", "docs/benchmarks.md",
	"docs/journal.md", "docs/growth.md", "docs/fleet.md", "docs/resp.md", "bench/README.md",
	"docs/workshop/README.md",
}

const root = "../.." // this test runs in docs/stages

// allDocuments is documents and every exercise's README.
func allDocuments(t *testing.T) []string {
	t.Helper()
	readmes, err := filepath.Glob(filepath.Join(root, "docs/workshop/*/README.md"))
	if err != nil || len(readmes) == 0 {
		t.Fatalf("no exercise READMEs found (%v)", err)
	}
	out := slices.Clone(documents)
	for _, r := range readmes {
		rel, _ := filepath.Rel(root, r)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// snippet is one ```go block of a document.
type snippet struct {
	line   int    // where the block starts in the document
	source string // the file it quotes, from its "// from" line
	body   []string
}

// sourceLine names the file a block quotes: "// from docs/stages/3-callbacks/main.go".
var sourceLine = regexp.MustCompile(`^// from (\S+)$`)

// elision separates the pieces of a block that quotes a file in parts.
const elision = "// ..."

func readSnippets(t *testing.T, doc string) []snippet {
	t.Helper()
	f, err := os.Open(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []snippet
	var cur *snippet
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && line == "```go":
			cur = &snippet{line: n}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil && cur.source == "" && len(cur.body) == 0:
			m := sourceLine.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("%s:%d: a go block must start with a line \"// from <file>\" naming what it quotes", doc, n)
				cur.source = "?"
				continue
			}
			cur.source = m[1]
		case cur != nil:
			cur.body = append(cur.body, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Errorf("%s:%d: a go block is never closed", doc, cur.line)
	}
	return out
}

// TestQuotationsMatchTheirSources checks that every ```go block in the
// documents appears, verbatim, in the file it names: change a program, and
// this test says which paragraph of the tutorial to change with it. A
// block may leave out parts of the file with a line "// ..."; the parts it
// shows must then appear in the file in that order.
func TestQuotationsMatchTheirSources(t *testing.T) {
	total := 0
	for _, doc := range allDocuments(t) {
		for _, s := range readSnippets(t, doc) {
			if s.source == "?" {
				continue
			}
			total++
			src, err := os.ReadFile(filepath.Join(root, s.source))
			if err != nil {
				t.Errorf("%s:%d: quotes %s: %v", doc, s.line, s.source, err)
				continue
			}
			// Parts are matched as whole lines: each is searched for after
			// a newline, in text that starts with one.
			rest := "\n" + string(src)
			for _, part := range parts(s.body) {
				i := strings.Index(rest, "\n"+part)
				if i < 0 {
					t.Errorf("%s:%d: this part of the quotation is not in %s (or not in this order):\n%s",
						doc, s.line, s.source, part)
					break
				}
				rest = rest[i+len(part):] // still starts with the part's last newline
			}
		}
	}
	if total == 0 {
		t.Error("no quotations found: is the check reading the right files?")
	}
}

// parts splits a block's lines at elision lines into text to find.
func parts(body []string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n")+"\n")
		}
		cur = nil
	}
	for _, line := range body {
		if strings.TrimSpace(line) == elision {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// mdLink finds the target of a markdown link: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// inlineCode is a code span, whose brackets are Go, not links.
var inlineCode = regexp.MustCompile("`[^`]*`")

// prose returns the text of a document outside code blocks and spans.
func prose(doc string) string {
	var out strings.Builder
	inBlock := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			out.WriteString(inlineCode.ReplaceAllString(line, "") + "\n")
		}
	}
	return out.String()
}

// TestRelativeLinksPointToFiles checks every relative link in the
// documents: the tutorial links to the library's files, which may move.
func TestRelativeLinksPointToFiles(t *testing.T) {
	for _, doc := range allDocuments(t) {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(doc), target)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link to %s: %v", doc, m[1], err)
			}
		}
	}
}

// captureLine names the file a ```text block quotes, when it does:
// "# from docs/kernel/capture/strace.txt".
var captureLine = regexp.MustCompile(`^# from (\S+)$`)

// TestQuotedOutputIsInItsFile checks the ```text blocks that say where
// they come from (a first line "# from <file>"): each of their lines is a
// whole line of that file, in the file's order, and "..." leaves lines
// out. docs/kernel.md quotes a strace capture this way; rerun the capture
// without updating the chapter, and this test says which lines to change.
func TestQuotedOutputIsInItsFile(t *testing.T) {
	total := 0
	for _, doc := range allDocuments(t) {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		for i := 0; i < len(lines); i++ {
			if lines[i] != "```text" || i+1 >= len(lines) {
				continue
			}
			m := captureLine.FindStringSubmatch(lines[i+1])
			if m == nil {
				continue
			}
			total++
			src, err := os.ReadFile(filepath.Join(root, m[1]))
			if err != nil {
				t.Errorf("%s:%d: quotes %s: %v", doc, i+1, m[1], err)
				continue
			}
			fileLines := strings.Split(string(src), "\n")
			at := 0
			for j := i + 2; j < len(lines) && lines[j] != "```"; j++ {
				if lines[j] == "..." {
					continue
				}
				k := slices.Index(fileLines[at:], lines[j])
				if k < 0 {
					t.Errorf("%s:%d: this line is not in %s (or not in this order):\n%s", doc, j+1, m[1], lines[j])
					break
				}
				at += k + 1
			}
		}
	}
	if total == 0 {
		t.Error("no quoted output found: is the check reading the right files?")
	}
}
