package main

import (
	"bytes"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// svgNode is enough of an SVG element to read the picture's structure.
type svgNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []svgNode  `xml:",any"`
}

func (n svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// find returns the descendants whose class is class.
func (n svgNode) find(class string) []svgNode {
	var out []svgNode
	for _, c := range n.Nodes {
		if c.attr("class") == class {
			out = append(out, c)
		}
		out = append(out, c.find(class)...)
	}
	return out
}

// rightmost is the largest x+width of the rects under n.
func (n svgNode) rightmost() float64 {
	right := 0.0
	for _, c := range n.Nodes {
		if c.XMLName.Local == "rect" {
			x, _ := strconv.ParseFloat(c.attr("x"), 64)
			w, _ := strconv.ParseFloat(c.attr("width"), 64)
			right = max(right, x+w)
		}
		right = max(right, c.rightmost())
	}
	return right
}

// The program draws both runs in one picture: with the semaphore five
// connection lanes (each connection reused), without it one per request;
// each run has its loop's lane and the host's ramp. The time axis is
// one: each run's bars are drawn as wide as the run took, at one scale.
// (The run without a limit is about three times as quick, 12 requests 5
// at a time being three rounds against one; but how quick each run is
// depends on the machine's load, so the test compares the drawing with
// the times the runs took, not with the theory.)
func TestBothRunsOnOneTimeAxis(t *testing.T) {
	guard := time.AfterFunc(time.Minute, func() { panic("timelines hung") })
	defer guard.Stop()
	dir := t.TempDir()
	var out bytes.Buffer
	chart, err := run(&out, dir, 12, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "at most 5 at once") || !strings.Contains(out.String(), "at most 12 at once") {
		t.Fatalf("output %q", out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "semaphore-and-unbounded.svg"))
	if err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	sections := root.find("section")
	if len(sections) != 2 || len(root.find("axis")) != 1 {
		t.Fatalf("%d sections and %d axes, want 2 sections on 1 axis", len(sections), len(root.find("axis")))
	}
	var barsRight [2]float64
	for i, want := range []int{5, 12} {
		s := sections[i]
		if n := len(s.find("lane")); n != want {
			t.Errorf("section %d: %d connection lanes, want %d", i+1, n, want)
		}
		if n := len(s.find("bar")); n != 12 {
			t.Errorf("section %d: %d bars, want 12", i+1, n)
		}
		if n := len(s.find("looplane")); n != 1 || len(s.find("hostlane")) != 1 {
			t.Errorf("section %d: %d loop lanes and %d host lanes, want 1 and 1", i+1, n, len(s.find("hostlane")))
		}
		for _, bar := range s.find("bar") {
			barsRight[i] = max(barsRight[i], bar.rightmost())
		}
	}
	// From the plot's left edge (110 px), each run's bars are as wide as
	// the run took, on one scale: to within a pixel of rounding in 800.
	var took [2]time.Duration
	for i, s := range chart.Sections {
		first, last := s.Bars[0].Start, s.Bars[0].End()
		for _, bar := range s.Bars {
			first, last = min(first, bar.Start), max(last, bar.End())
		}
		took[i] = last - first
	}
	drawn, want := (barsRight[1]-110)/(barsRight[0]-110), float64(took[1])/float64(took[0])
	if math.Abs(drawn-want) > 0.005 {
		t.Fatalf("the run without a limit is drawn %.3f as wide as the one with, and took %.3f as long (%v against %v): not one time axis", drawn, want, took[1], took[0])
	}
}
