package timeline_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/crawler/timeline"
	"loopkit/loop"
)

const ms = time.Millisecond

func TestPhasesFromATrace(t *testing.T) {
	fresh := http1.Trace{Start: 100 * ms, Timings: http1.Timings{DNS: 1 * ms, Connect: 2 * ms, Written: 3 * ms, FirstByte: 10 * ms, Done: 12 * ms}}
	reused := http1.Trace{Start: 200 * ms, Timings: http1.Timings{Written: 1 * ms, FirstByte: 5 * ms, Done: 6 * ms}}
	refused := http1.Trace{Start: 300 * ms, Timings: http1.Timings{DNS: 1 * ms, Done: 2 * ms}}
	stalledTLS := http1.Trace{Start: 400 * ms, Timings: http1.Timings{DNS: 1 * ms, Connect: 2 * ms, Done: 9 * ms}}
	for _, tc := range []struct {
		name    string
		trace   http1.Trace
		withTLS bool
		want    string
	}{
		{"fresh", fresh, false, "dns@101 connect@102 write@103 wait@110 read@112"},
		{"reused", reused, false, "write@201 wait@205 read@206"},
		{"refused", refused, false, "dns@301 connect@302"},
		{"stalled in the handshake", stalledTLS, true, "dns@401 connect@402 tls@409"},
	} {
		var got []string
		for _, p := range timeline.Phases(tc.trace, tc.withTLS) {
			got = append(got, fmt.Sprintf("%s@%d", p.Name, p.End/ms))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, got, tc.want)
		}
	}
}

// svgNode is enough of an SVG element to check the picture's structure.
type svgNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []svgNode  `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// find returns the descendants whose class starts with class.
func (n svgNode) find(class string) []svgNode {
	var out []svgNode
	for _, c := range n.Nodes {
		if strings.HasPrefix(c.attr("class"), class) {
			out = append(out, c)
		}
		out = append(out, c.find(class)...)
	}
	return out
}

// The picture has a lane per connection in the order they were first used,
// a bar per request inside its lane with a rect per phase, the kinds of
// bar marked, the host wait drawn where a request waited on a free
// connection, and a legend.
func TestSVGStructure(t *testing.T) {
	phases := func(start time.Duration, ends ...time.Duration) []timeline.Phase {
		var out []timeline.Phase
		for i, e := range ends {
			out = append(out, timeline.Phase{Name: timeline.PhaseNames[3+i%3], End: start + e})
		}
		return out
	}
	bars := []timeline.Bar{
		{Lane: 2, Label: "/b", Queued: 5 * ms, Start: 5 * ms, Phases: phases(5*ms, 1*ms, 4*ms, 5*ms)},
		{Lane: 1, Label: "/robots.txt", Robots: true, Start: 0, Phases: phases(0, 1*ms, 2*ms, 3*ms)},
		{Lane: 1, Label: "/a", Queued: 0, Start: 20 * ms, Phases: phases(20*ms, 1*ms, 9*ms, 10*ms)}, // waited from 3 ms
		{Lane: 1, Label: "/a", Retry: true, Failed: true, Queued: 40 * ms, Start: 40 * ms, Phases: phases(40*ms, 1*ms)},
	}
	var out bytes.Buffer
	if err := timeline.WriteSVG(&out, "test", bars); err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out.String())
	}
	lanes := root.find("lane")
	if len(lanes) != 2 || lanes[0].attr("data-conn") != "1" || lanes[1].attr("data-conn") != "2" {
		t.Fatalf("lanes %v, want conn 1 (first used) then conn 2", lanes)
	}
	if n := len(lanes[0].find("bar")); n != 3 {
		t.Fatalf("%d bars in lane 1, want 3", n)
	}
	var kinds []string
	for _, bar := range root.find("bar") {
		kinds = append(kinds, bar.attr("data-kind")+"/"+bar.attr("data-failed"))
	}
	if strings.Join(kinds, " ") != "robots/false page/false retry/true page/false" {
		t.Fatalf("bar kinds %v", kinds)
	}
	if n := len(root.find("phase")); n != 10 {
		t.Fatalf("%d phase rects, want 3+3+1+3", n)
	}
	waits := root.find("hostwait")
	if len(waits) != 1 {
		t.Fatalf("%d host waits drawn, want 1 (the /a that waited on a free connection)", len(waits))
	}
	// It starts where the connection became free, at the robots.txt
	// bar's end, not when /a was queued (then the connection was busy).
	robots := root.find("bar")[0].find("phase")
	last := robots[len(robots)-1]
	x, _ := strconv.ParseFloat(last.attr("x"), 64)
	w, _ := strconv.ParseFloat(last.attr("width"), 64)
	if x1, _ := strconv.ParseFloat(waits[0].attr("x1"), 64); x1 < x+w-0.2 {
		t.Fatalf("the host wait starts at x=%.1f, inside the robots.txt bar that ends at %.1f", x1, x+w)
	}
	if len(root.find("legend")) != 1 || len(root.find("axis")) != 1 || len(root.find("failed")) != 1 {
		t.Fatal("no legend, axis or failure mark")
	}
}

// Two thousand requests on a hundred connections still make a picture of
// bounded size: lanes shrink, labels go.
func TestSVGScalesToThousands(t *testing.T) {
	var bars []timeline.Bar
	for i := range 2000 {
		start := time.Duration(i) * ms
		bars = append(bars, timeline.Bar{Lane: uint64(i%100 + 1), Label: "/x", Start: start,
			Phases: []timeline.Phase{{Name: "wait", End: start + 40*ms}, {Name: "read", End: start + 50*ms}}})
	}
	var out bytes.Buffer
	if err := timeline.WriteSVG(&out, "many", bars); err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatal(err)
	}
	if len(root.find("lane")) != 100 || len(root.find("bar")) != 2000 {
		t.Fatalf("%d lanes, %d bars", len(root.find("lane")), len(root.find("bar")))
	}
	if h, _ := strconv.ParseFloat(root.attr("height"), 64); h > 1100 {
		t.Fatalf("height %v: the lanes did not shrink", h)
	}
	if strings.Contains(out.String(), ">/x</text>") {
		t.Fatal("labels drawn in 9-pixel lanes")
	}
}

// Two sections on one axis: each has its loop lane above its host lane
// above its connections; two loops' connections numbered alike are two
// lanes, each saying its loop; the second section, half as long, has its
// bars end halfway across.
func TestChartOfSectionsOnOneAxis(t *testing.T) {
	lane := func(name string) *timeline.LoopLane {
		l := &timeline.LoopLane{Name: name}
		l.Add(&loop.Iteration{N: 1, Start: 0, End: 40 * ms, Timeout: -1, Polled: true, Asleep: 30 * ms,
			Ready: []loop.Ready{{FD: 9, Read: true}}, Callbacks: 1, Busy: 10 * ms, Calls: []loop.Call{{Start: 30 * ms, End: 40 * ms}}})
		return l
	}
	wait := func(loop int, conn uint64, end time.Duration) timeline.Bar {
		return timeline.Bar{Loop: loop, Lane: conn, Host: "h", Start: 0, Phases: []timeline.Phase{{Name: "wait", End: end}}}
	}
	c := timeline.Chart{Title: "two runs", Sections: []timeline.Section{
		{Title: "long", Loops: []*timeline.LoopLane{lane("loop 0"), lane("loop 1")}, Bars: []timeline.Bar{wait(0, 1, 40*ms), wait(1, 1, 40*ms)}},
		{Title: "short", Loops: []*timeline.LoopLane{lane("loop 0")}, Bars: []timeline.Bar{wait(0, 1, 20*ms)}},
	}}
	var out bytes.Buffer
	if err := c.WriteSVG(&out); err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	sections := root.find("section")
	if len(sections) != 2 || len(root.find("axis")) != 1 {
		t.Fatalf("%d sections, %d axes", len(sections), len(root.find("axis")))
	}
	first := sections[0]
	if len(first.find("looplane")) != 2 || len(first.find("hostlane")) != 1 || len(first.find("lane")) != 2 {
		t.Fatalf("first section: %d loop lanes, %d host lanes, %d connection lanes; want 2, 1, 2",
			len(first.find("looplane")), len(first.find("hostlane")), len(first.find("lane")))
	}
	var names []string
	for _, l := range first.find("lane") {
		for _, n := range l.Nodes {
			if n.XMLName.Local == "text" {
				names = append(names, n.Text)
			}
		}
	}
	if strings.Join(names, ", ") != "loop 0 conn 1, loop 1 conn 1" {
		t.Fatalf("connection lanes named %v", names)
	}
	right := func(s svgNode) string {
		r := s.find("phase wait")
		return r[len(r)-1].attr("width")
	}
	if a, b := right(first), right(sections[1]); a != "1100.00" || b != "550.00" {
		t.Fatalf("bars %s and %s px wide: want the whole axis, then half of it", a, b)
	}
}

// A request queued before the section's first request started (robots.txt
// is asked for before anything goes out) has its wait drawn from the
// axis's start, never left of it, where the lanes' names are.
func TestAHostWaitNeverCrossesTheLaneNames(t *testing.T) {
	read := func(end time.Duration) []timeline.Phase { return []timeline.Phase{{Name: "read", End: end}} }
	bars := []timeline.Bar{
		{Loop: 0, Lane: 1, Label: "/robots.txt", Robots: true, Queued: 0, Start: 2 * ms, Phases: read(4 * ms)},
		{Loop: 1, Lane: 1, Label: "/a", Queued: 0, Start: 6 * ms, Phases: read(9 * ms)},
	}
	var out bytes.Buffer
	if err := timeline.WriteSVG(&out, "test", bars); err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	axis, _ := strconv.ParseFloat(root.find("phase")[0].attr("x"), 64) // the first request starts the axis
	waits := root.find("hostwait")
	if len(waits) != 1 {
		t.Fatalf("%d host waits drawn, want 1 (loop 1's /a, queued before the axis began)", len(waits))
	}
	if x1, _ := strconv.ParseFloat(waits[0].attr("x1"), 64); x1 < axis {
		t.Errorf("the host wait starts at x=%.1f, left of the axis at %.1f, through the lane's name", x1, axis)
	}
}
