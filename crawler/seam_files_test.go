package crawler

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The chapter's files, and the files behind the seam (doc.go lists both).
var (
	lessonFiles = []string{"crawler.go", "fetch.go", "addurl.go", "todo.go", "record.go", "report.go",
		"dispatch.go", "politeness.go", "config.go", "errorkind.go", "extension.go", "doc.go"}
	productionFiles = []string{"persist.go", "store.go", "spill.go", "backlog.go", "seen.go", "shared.go", "assemble.go", "budget.go",
		"parsepool.go", "shard.go", "group.go"}
)

// Every file is a lesson file or a production one, so that the checks
// below see every file.
func TestEveryFileIsLessonOrProduction(t *testing.T) {
	names, _ := filepath.Glob("*.go")
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if !slices.Contains(lessonFiles, name) && !slices.Contains(productionFiles, name) {
			t.Errorf("%s is neither a lesson file nor a production file: add it to one list (and to doc.go's map)", name)
		}
	}
}
