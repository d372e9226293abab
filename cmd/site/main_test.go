package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Bad flags are one line on stderr and exit code 2.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-pages", "-5"},
		{"-pages", "many"},
		{"-fanout", "0", "-depth", "-1"},
		{"-nosuchflag"},
		{"-gomaxprocs", "-1"},
		{"-hosts", "0"},
		{"-hosts", "1001"},
		{"-hosts", "3", "-addr", "127.0.0.1:65534"},
		{"-addr", "0.0.0.0:0"},
		{"-addr", "nonsense"},
		{"stray"},
	} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), args, &stdout, &stderr)
		if code != exitUsage || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("site %s: exit %d, stdout %q, stderr %q; want 2, nothing, one line",
				strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
	}
}

// The first line on stdout is the root URL; the site serves until the context ends
// (SIGINT or SIGTERM in main), then exits 0.
func TestServesUntilStopped(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out, stdout := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"-addr", "127.0.0.1:0", "-pages", "50", "-fanout", "5", "-gomaxprocs", "1"}, stdout, io.Discard)
		stdout.Close()
	}()

	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("no URL on stdout (exit %d)", <-exit)
	}
	root := lines.Text()
	if !strings.HasPrefix(root, "http://127.0.0.1:") || !strings.HasSuffix(root, "/") {
		t.Fatalf("first line %q, want http://127.0.0.1:PORT/", root)
	}
	go io.Copy(io.Discard, out) // nothing else is expected, but never block the site

	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
	defer c.CloseIdleConnections()
	resp, err := c.Get(root)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", root, resp.Status)
	}
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Errorf("-gomaxprocs 1: GOMAXPROCS is %d", n)
	}

	stop()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d after the signal, want 0", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still serving 5s after the signal")
	}
	if _, err := c.Get(root); err == nil {
		t.Error("the site still answers after exiting")
	}
}

// With -hosts, stdout has each host's root URL on a line of its own, host 0's first,
// on consecutive ports; each serves its own robots.txt.
func TestPrintsEveryHost(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out, stdout := io.Pipe()
	exit := make(chan int, 1)
	var stderr strings.Builder // read only once run has returned
	go func() {
		exit <- run(ctx, []string{"-addr", "127.0.0.1:0", "-pages", "100", "-hosts", "4"}, stdout, &stderr)
		stdout.Close()
	}()
	lines := bufio.NewScanner(out)
	var roots []string
	guard := time.AfterFunc(10*time.Second, stop) // too few lines: stop the site, and Scan with it
	defer guard.Stop()
	for len(roots) < 4 && lines.Scan() {
		roots = append(roots, lines.Text())
	}
	go io.Copy(io.Discard, out)
	if len(roots) != 4 {
		code := <-exit
		t.Fatalf("%d lines on stdout, want 4 (exit %d, stderr %q)", len(roots), code, stderr.String())
	}
	_, first, _ := strings.Cut(strings.TrimSuffix(roots[0], "/"), "127.0.0.1:")
	port, err := strconv.Atoi(first)
	if err != nil {
		t.Fatalf("first line %q, want http://127.0.0.1:PORT/", roots[0])
	}
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
	defer c.CloseIdleConnections()
	for h, root := range roots {
		if want := "http://127.0.0.1:" + strconv.Itoa(port+h) + "/"; root != want {
			t.Errorf("line %d: %s, want %s", h+1, root, want)
		}
		resp, err := c.Get(root + "robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %srobots.txt: %s", root, resp.Status)
		}
	}
	stop()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d after the signal, want 0", code)
	}
}

// -h prints the flags and exits 0.
func TestHelp(t *testing.T) {
	var stderr strings.Builder
	if code := run(context.Background(), []string{"-h"}, io.Discard, &stderr); code != 0 || !strings.Contains(stderr.String(), "-pages") {
		t.Errorf("-h: exit %d, %q", code, stderr.String())
	}
}
