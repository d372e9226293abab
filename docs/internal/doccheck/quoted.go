// Package doccheck holds what the docs' programs' tests share to keep the
// docs true: a check that what a document quotes of a program's output is
// what the program prints.
package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The docs quote what their programs print. Timings differ from run to
// run, and so do a few counts; everything else — how many pages, how many
// at once, what the report says — is the program's to keep true. Quoted
// checks it: run a program as its main does (with a shorter wait, if it
// waits), and hand its output here.

// unstable are the parts of a line that differ from run to run: elapsed
// times and CPU, rates, percentages, ports. Each is replaced by "#" in the
// tutorial's line and in the program's before they are compared.
var unstable = []*regexp.Regexp{
	regexp.MustCompile(`\d+(\.\d+)?(ns|µs|us|ms|s|m)\b`), // 1.035s, 50ms
	regexp.MustCompile(`\d+\.\d+ (secs|urls/sec/task)`),
	regexp.MustCompile(`\d+(\.\d+)?%`),
	regexp.MustCompile(`127\.0\.0\.1:\d+`),
}

// Quoted fails the test unless each line of doc's ```text block that
// starts with "$ "+command — bar its "..." lines — is a line of output, in
// order, once the unstable parts of both are masked. doc is a path from the
// module's root. more are patterns for what else differs from run to run
// in this program's output (a count of spins, which worker counted a page).
func Quoted(t *testing.T, doc, command, output string, more ...string) {
	t.Helper()
	quoted := quotedLines(t, doc, "$ "+command)
	if len(quoted) == 0 {
		t.Fatalf("%s quotes no output of %q", doc, command)
	}
	Match(t, doc+": "+command, quoted, output, more...)
}

// Match fails the test unless each of the quoted lines is a line of
// output, in order, once the unstable parts of both are masked (more:
// as for Quoted). where names the quotation in the failure.
func Match(t *testing.T, where string, quoted []string, output string, more ...string) {
	t.Helper()
	masks := unstable
	for _, m := range more {
		masks = append(masks, regexp.MustCompile(m))
	}
	mask := func(s string) string {
		for _, re := range masks {
			s = re.ReplaceAllString(s, "#")
		}
		return s
	}
	var got []string
	for _, line := range strings.Split(output, "\n") {
		got = append(got, mask(line))
	}
	at := 0
	for _, q := range quoted {
		want := mask(q)
		i := at
		for i < len(got) && got[i] != want {
			i++
		}
		if i == len(got) {
			t.Errorf("%s: the quotation has this line, which the program does not print (or not in this order):\n%s\n(masked: %s)\nthe program printed:\n%s",
				where, q, want, output)
			return
		}
		at = i + 1
	}
}

// quotedLines returns the lines of the ```text block of doc whose first
// line is first, without that line and without its "..." lines.
func quotedLines(t *testing.T, doc, first string) []string {
	t.Helper()
	for _, b := range Blocks(t, doc) {
		if len(b.Commands) > 0 && "$ "+b.Commands[0] == first {
			var out []string
			for _, l := range b.Lines[1:] {
				if l != "..." {
					out = append(out, l)
				}
			}
			return out
		}
	}
	return nil
}

// Block is a ```text block of a document that shows commands typed at a
// prompt ("$ go run ./cmd/crawl") and what the last of them printed.
type Block struct {
	Line     int      // where the block's first line is, from 1
	Lines    []string // every line of it
	Commands []string // its "$ " lines, without the "$ "
	Output   []string // the lines after the last command, without its "..." lines
}

// Blocks returns doc's ```text blocks that start with a "$ " line.
func Blocks(t *testing.T, doc string) []Block {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ModuleRoot(t), doc))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []Block
	for i := 0; i+1 < len(lines); i++ {
		if lines[i] != "```text" || !strings.HasPrefix(lines[i+1], "$ ") {
			continue
		}
		blk := Block{Line: i + 2}
		for _, l := range lines[i+1:] {
			if l == "```" {
				break
			}
			blk.Lines = append(blk.Lines, l)
			switch {
			case strings.HasPrefix(l, "$ "):
				blk.Commands = append(blk.Commands, strings.TrimPrefix(l, "$ "))
				blk.Output = nil
			case l != "...":
				blk.Output = append(blk.Output, l)
			}
		}
		out = append(out, blk)
	}
	return out
}

// ModuleRoot is the directory of go.mod, above the test's own.
func ModuleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
