package main

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every Config field the library names in its messages — in a string, or
// as a ConfigError's Field — reaches the operator as its flag: flagWords
// knows it, and the message is said in the command's words.
func TestEveryConfigFieldTheLibraryNamesHasAFlag(t *testing.T) {
	files, err := filepath.Glob("../../crawler/*.go")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	field := regexp.MustCompile(`Config\.([A-Z]\w*)`)
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(name, -1, len(src)), src, nil, 0)
		prev := ""
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.STRING {
				for _, m := range field.FindAllStringSubmatch(lit, -1) {
					named[m[1]] = true
				}
				if prev == "Field" { // ConfigError{Field: "State"}
					named[strings.Trim(lit, `"`)] = true
				}
			}
			if tok == token.IDENT {
				prev = lit
			} else if tok != token.COLON {
				prev = ""
			}
		}
	}
	for _, must := range []string{"State", "Output", "MaxRetryAfter", "MaxPagesPerHost"} {
		if !named[must] {
			t.Fatalf("found no message naming Config.%s: the scan misses what it should see (found %v)", must, named)
		}
	}
	for f := range named {
		if said := flagWords.Replace("Config." + f); !strings.HasPrefix(said, "-") {
			t.Errorf("the library names Config.%s, and the command has no flag word for it", f)
		}
	}
}
