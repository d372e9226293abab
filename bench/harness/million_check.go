package harness

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"loopkit/bench/report"
	"loopkit/site"
)

// S7 checks every crawl's -o against the site's own link graph: the URLs
// a polite crawler fetches (site.EachExpected, robots.txt obeyed), each
// once. At ten million pages that walk takes about a minute and a
// gigabyte, and ten million URL strings held to compare with would be as
// many again. So the walk runs in a process of its own (the expect role),
// before the crawl, and hands back each URL as a 128-bit hash, 16 bytes;
// -o is read a line at a time into the same hashes, and the two sorted
// lists are compared. Two different URLs that hash alike would pass as
// one: at ten million URLs the odds are about 1 in 10^25.
//
// A URL is hashed as its host's number and its path, not as written, so
// that the same site served on other ports gives the same keys: the
// expect process serves the site on ports of its own.

// urlKey is a URL's 128-bit FNV-1a hash.
type urlKey struct{ hi, lo uint64 }

func compareKeys(a, b urlKey) int {
	if c := cmp.Compare(a.hi, b.hi); c != 0 {
		return c
	}
	return cmp.Compare(a.lo, b.lo)
}

// keyer turns the URLs of one site, served at roots, into keys.
type keyer struct {
	hosts map[string]int // "http://127.0.0.1:4000" → its host's number
	h     hash.Hash
	buf   []byte
}

func newKeyer(roots []string) *keyer {
	k := &keyer{hosts: make(map[string]int), h: fnv.New128a()}
	for i, r := range roots {
		origin, _ := splitOrigin(r)
		k.hosts[origin] = i
	}
	return k
}

// splitOrigin cuts "http://host:port/path?q" into its origin and the rest.
func splitOrigin(u string) (origin, rest string) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", u
	}
	j := strings.IndexByte(u[i+3:], '/')
	if j < 0 {
		return u, "/"
	}
	return u[:i+3+j], u[i+3+j:]
}

func (k *keyer) key(u string) urlKey {
	origin, rest := splitOrigin(u)
	k.buf = k.buf[:0]
	if h, ok := k.hosts[origin]; ok {
		k.buf = strconv.AppendInt(k.buf, int64(h), 10)
		k.buf = append(k.buf, ' ')
		k.buf = append(k.buf, rest...)
	} else { // off the site: it cannot match, and must not look like it does
		k.buf = append(k.buf, "elsewhere "...)
		k.buf = append(k.buf, u...)
	}
	k.h.Reset()
	k.h.Write(k.buf)
	var sum [16]byte
	k.h.Sum(sum[:0])
	return urlKey{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:])}
}

// expectOrder asks an expect child for the keys of a site's URLs.
type expectOrder struct {
	Pages int    `json:"pages"`
	Hosts int    `json:"hosts"`
	File  string `json:"file"` // where to write the sorted keys, 16 bytes each
}

// expectChild builds the site, walks its link graph and writes the keys
// of the URLs a polite crawler fetches, sorted.
func expectChild(stdout io.Writer) error {
	var o expectOrder
	if err := json.Unmarshal([]byte(os.Getenv(envOrder)), &o); err != nil {
		return fmt.Errorf("bad order: %w", err)
	}
	s, err := site.Start(site.Config{Pages: o.Pages, Hosts: o.Hosts}, "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer s.Close()
	k := newKeyer(s.URLs())
	var keys []urlKey
	s.EachExpected(true, func(u string) { keys = append(keys, k.key(u)) })
	slices.SortFunc(keys, compareKeys)
	f, err := os.Create(o.File)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, key := range keys {
		_ = binary.Write(w, binary.BigEndian, [2]uint64{key.hi, key.lo}) // a bufio.Writer's errors stick: Flush says
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, len(keys))
	return err
}

// expectedKeys runs an expect child for a site of pages over hosts and
// reads the keys it wrote, sorted.
func (b *bench) expectedKeys(ctx context.Context, pages, hosts int, dir string) ([]urlKey, error) {
	file := dir + "/expected-" + strconv.Itoa(pages) + ".keys"
	defer os.Remove(file)
	env, err := childEnv(roleExpect, expectOrder{Pages: pages, Hosts: hosts, File: file}, 1)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, b.cfg.Self)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if _, err := cmd.Output(); err != nil {
		return nil, fmt.Errorf("the site's expected URLs: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	keys := make([]urlKey, len(data)/16)
	for i := range keys {
		keys[i] = urlKey{binary.BigEndian.Uint64(data[16*i:]), binary.BigEndian.Uint64(data[16*i+8:])}
	}
	return keys, nil
}

// outputKeys reads a crawl's -o, a JSON line per URL, into sorted keys.
// A line that is not a record with a URL is counted in bad.
func outputKeys(path string, k *keyer) (keys []urlKey, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var rec struct {
		URL string `json:"url"`
	}
	for sc.Scan() {
		rec.URL = ""
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.URL == "" {
			bad++
			continue
		}
		keys = append(keys, k.key(rec.URL))
	}
	slices.SortFunc(keys, compareKeys)
	return keys, bad, sc.Err()
}

// setCheck compares the sorted keys of a crawl's output with the site's.
type setCheck struct {
	lines, bad             int // the lines of -o, and those that were no record
	missing, extra, repeat int // expected and not there; there and not expected; there more than once
}

func compareKeySets(got, want []urlKey, bad int) setCheck {
	c := setCheck{lines: len(got) + bad, bad: bad}
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case i > 0 && i < len(got) && got[i] == got[i-1]:
			c.repeat++
			i++
		case j == len(want):
			c.extra++
			i++
		case i == len(got):
			c.missing++
			j++
		default:
			switch compareKeys(got[i], want[j]) {
			case 0:
				i++
				j++
			case -1:
				c.extra++
				i++
			default:
				c.missing++
				j++
			}
		}
	}
	return c
}

func (c setCheck) same() bool { return c.bad == 0 && c.missing == 0 && c.extra == 0 && c.repeat == 0 }

func (c setCheck) String() string {
	if c.same() {
		return fmt.Sprintf("the site's %s URLs, each once", report.FormatNumber(float64(c.lines), 0))
	}
	return fmt.Sprintf("DIFFERS: %s lines; %d of the site's URLs missing, %d not the site's, %d repeated, %d not a record",
		report.FormatNumber(float64(c.lines), 0), c.missing, c.extra, c.repeat, c.bad)
}

// awaitLines waits until the file at path has n whole lines, polling
// every 10 ms, and returns how many it saw. It gives up when exited is
// closed first: the crawl ended before it could be stopped there.
func awaitLines(ctx context.Context, path string, n int, exited <-chan struct{}) (int, error) {
	lines, offset := 0, int64(0)
	buf := make([]byte, 1<<20)
	for {
		if f, err := os.Open(path); err == nil {
			for {
				m, err := f.ReadAt(buf, offset)
				lines += bytes.Count(buf[:m], []byte{'\n'})
				offset += int64(m)
				if err != nil || m == 0 {
					break
				}
			}
			f.Close()
		}
		if lines >= n {
			return lines, nil
		}
		select {
		case <-ctx.Done():
			return lines, ctx.Err()
		case <-exited:
			return lines, fmt.Errorf("the crawl ended after %d lines, before it could be killed at %d", lines, n)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// countLines counts the whole lines of a file.
func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 1<<20)
	for {
		m, err := f.Read(buf)
		n += bytes.Count(buf[:m], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
