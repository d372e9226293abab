package journal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"loopkit/crawler/urlnorm"
)

// Visitor hears what a replay finds. Every field is optional.
type Visitor struct {
	// Seen hears every URL queued or done, once.
	Seen func(url string)
	// Queued hears every URL to do, once, in the order it was found,
	// after Seen heard of it.
	Queued func(url string, depth, redirects int32)
	// Robots hears each host's latest robots.txt that has not expired.
	Robots func(origin string, until time.Time, body []byte)
	// Hold hears each server's latest Retry-After hold that has not passed.
	Hold func(authority string, until time.Time)
}

// Summary says what a replay found.
type Summary struct {
	Entries int // whole entries read
	Done    int // URLs done (from D entries and the -o file)
	ToDo    int // URLs queued and not done
}

// Replay reads the journal and tells v what it holds; done, if not nil,
// is called first and tells of the URLs the -o file says are done. A
// damaged tail is cut at the last whole entry. A damaged entry with whole
// ones after it is skipped, said in a notice, and the journal rewritten
// without it: a stop tears only the end, so that is a damaged disk or an
// edit, and what the entries after it hold is kept. A journal whose dead
// entries (done URLs' queue entries, duplicates, old robots.txt) are more
// than half of it is rewritten with only the live ones. Replay is called
// once, after Open and before the first Write.
//
// It reads the journal twice: collect finds what is done and the latest
// politeness state, handOut tells v what is to do and writes what is
// live to a new journal, and compact keeps the new one if it is enough
// smaller.
func (j *Journal) Replay(now time.Time, v Visitor, done func(yield func(url string)) error) (Summary, error) {
	r := replay{v: v, robots: map[string]entry{}, holds: map[string]time.Time{}}
	if err := j.collect(&r, done); err != nil {
		return r.sum, err
	}
	live, err := j.handOut(&r, now)
	if err == nil {
		err = j.compact(live, r.sum.Entries, r.skipped > 0)
	}
	if err != nil {
		return r.sum, err
	}
	return r.sum, j.openForAppend()
}

// replay is what a replay has found so far.
type replay struct {
	v       Visitor
	sum     Summary
	done    urlnorm.Seen // URLs done, as hashes
	robots  map[string]entry
	holds   map[string]time.Time
	skipped int // damaged entries with whole ones after them
}

// seen tells the visitor of a URL queued or done.
func (r *replay) seen(u string) {
	if r.v.Seen != nil {
		r.v.Seen(u)
	}
}

// collect is the first pass: the URLs done (the -o file's, then the D
// entries), each host's latest robots.txt and each server's latest hold.
// It cuts a damaged tail.
func (j *Journal) collect(r *replay, done func(yield func(url string)) error) error {
	if done != nil {
		if err := done(func(u string) {
			if r.done.Add(u) {
				r.seen(u)
			}
		}); err != nil {
			return err
		}
	}
	good, skipped, err := j.scan(0, func(e entry) {
		r.sum.Entries++
		switch e.kind {
		case kindDone:
			if r.done.Add(e.url) {
				r.seen(e.url)
			}
		case kindRobots:
			r.robots[e.url] = e
		case kindHold:
			r.holds[e.url] = later(r.holds[e.url], e.until)
		}
	})
	if err != nil {
		return err
	}
	r.sum.Done = r.done.Len()
	r.skipped = skipped
	if err := j.cutAt(good); err != nil {
		return err
	}
	if skipped > 0 {
		j.notices = append(j.notices, fmt.Sprintf("%s: skipped %d damaged entries with whole ones after them (a damaged disk or an edit: a stop tears only the end); each named a URL that may now be fetched again or, if it was only queued, not crawled",
			j.path(), skipped))
	}
	return nil
}

// handOut is the second pass: it tells the visitor every queued URL not
// done, once each, in the order found, then the robots.txt and holds not
// expired — the queue first, so that the rules screen it — and writes
// every live entry to a new journal beside the old one. It returns how
// many live entries it wrote.
func (j *Journal) handOut(r *replay, now time.Time) (live int, err error) {
	tmp, err := os.Create(j.path() + ".new")
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(tmp, 256<<10)
	var queued, doneWritten urlnorm.Seen
	var line []byte
	keep := func(b []byte) {
		live++
		line = b // its buffer is reused for the next
		w.Write(b)
	}
	_, _, err = j.scan(0, func(e entry) { // up to good: the file was cut there
		switch e.kind {
		case kindQueued:
			if r.done.Has(e.url) || !queued.Add(e.url) {
				return
			}
			r.seen(e.url)
			r.sum.ToDo++
			if r.v.Queued != nil {
				r.v.Queued(e.url, e.depth, e.redirects)
			}
			keep(AppendQueued(line[:0], e.url, e.depth, e.redirects))
		case kindDone:
			if doneWritten.Add(e.url) {
				keep(AppendDone(line[:0], e.url))
			}
		}
	})
	for origin, e := range r.robots {
		if e.until.After(now) {
			if r.v.Robots != nil {
				r.v.Robots(origin, e.until, e.body)
			}
			keep(AppendRobots(line[:0], origin, e.until, e.body))
		}
	}
	for authority, until := range r.holds {
		if until.After(now) {
			if r.v.Hold != nil {
				r.v.Hold(authority, until)
			}
			keep(AppendHold(line[:0], authority, until))
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return live, err
}

// compact puts the new journal in the old one's place if its live
// entries are less than half of the old one's, or the old one had damage
// in the middle; otherwise it throws the new one away.
func (j *Journal) compact(live, entries int, damaged bool) error {
	if live*2 < entries || damaged {
		return j.replaceWith(j.path()+".new", entries, live)
	}
	return os.Remove(j.path() + ".new")
}

// scan reads whole entries from offset from, calling fn for each, and
// returns the offset after the last whole one. A damaged line is passed
// over; skipped counts those that have a whole entry after them, since
// the damaged lines at the end are a torn tail, which the caller cuts.
func (j *Journal) scan(from int64, fn func(entry)) (good int64, skipped int, err error) {
	if _, err := j.f.Seek(from, io.SeekStart); err != nil {
		return 0, 0, err
	}
	r := bufio.NewReaderSize(j.f, 256<<10)
	good = from
	offset, damaged := from, 0
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Longer than any entry we write (a robots.txt is at most
			// 683 KiB in base64): read it whole to check it.
			line, err = readLong(r, line)
		}
		if err == io.EOF {
			return good, skipped, nil // a last line without its newline is torn
		}
		if err != nil {
			return good, skipped, err
		}
		offset += int64(len(line))
		e, perr := parseEntry(line[:len(line)-1])
		if perr != nil {
			damaged++
			continue
		}
		fn(e)
		good, skipped, damaged = offset, skipped+damaged, 0
	}
}

// maxEntry is longer than any entry written: a robots.txt of 512 KiB is
// 683 KiB in base64. A longer "line" is damage (or not a journal).
const maxEntry = 1 << 20

func readLong(r *bufio.Reader, first []byte) ([]byte, error) {
	long := append([]byte(nil), first...)
	for len(long) <= maxEntry {
		more, err := r.ReadSlice('\n')
		long = append(long, more...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return long, err
		}
	}
	return long[:0:0], io.EOF // damaged: cut here
}

// cutAt cuts the journal after its last whole entry, saying so if there
// was anything after it.
func (j *Journal) cutAt(good int64) error {
	st, err := j.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == good {
		return nil
	}
	j.notices = append(j.notices, fmt.Sprintf("%s: cut %d bytes after the last whole entry (a stop in the middle of a write, or a damaged disk); what they held is done again",
		j.path(), st.Size()-good))
	if err := j.f.Truncate(good); err != nil {
		return err
	}
	return j.f.Sync()
}

// replaceWith puts the rewritten journal in the old one's place.
func (j *Journal) replaceWith(tmp string, before, after int) error {
	if err := os.Rename(tmp, j.path()); err != nil {
		return err
	}
	if d, err := os.Open(j.dir); err == nil {
		d.Sync() // the rename itself survives a power cut
		d.Close()
	}
	j.notices = append(j.notices, fmt.Sprintf("%s: rewritten with its %d live entries of %d", j.path(), after, before))
	return nil
}

// openForAppend reopens the journal for appending.
func (j *Journal) openForAppend() error {
	j.f.Close()
	f, err := os.OpenFile(j.path(), os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	j.f = f
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
