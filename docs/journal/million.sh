#!/usr/bin/env bash
# usage: bash docs/journal/million.sh PAGES HOSTS [crawl flags...]
# The million-pages measurement: the site in its own process, over HOSTS
# hosts; the crawl with -o and no per-URL report. Prints pages, wall,
# pages/s, peak RSS (MiB), and the JSONL's size.
# usage: million.sh PAGES HOSTS [crawl flags...]
# Builds crawl and site into a temporary directory first: run it from the
# repository's root.
set -u
bin=$(mktemp -d)
go build -o "$bin/crawl" ./cmd/crawl && go build -o "$bin/site" ./cmd/site || exit 1
pages=$1 hosts=$2; shift 2
"$bin/site" -addr 127.0.0.1:0 -pages "$pages" -hosts "$hosts" > /tmp/msite.out 2>/tmp/msite.err &
site=$!
for _ in $(seq 100); do [ "$(wc -l < /tmp/msite.out)" -ge "$hosts" ] && break; sleep 0.1; done
roots=$(head -n "$hosts" /tmp/msite.out)
rm -f /tmp/m.jsonl
/usr/bin/time -f "%e %M %U %S" -o /tmp/mtime "$bin/crawl" --report_urls 0 -o /tmp/m.jsonl "$@" $roots > /tmp/mreport.txt 2>/tmp/merr.txt
read -r wall rss user sys < /tmp/mtime
done=$(grep -m1 '^Done:' /tmp/mreport.txt | cut -d' ' -f2)
kill $site; wait $site 2>/dev/null
printf 'pages=%s hosts=%s done=%s wall=%ss pages/s=%.0f peakRSS=%.0fMiB user=%ss sys=%ss jsonl=%s\n' "$pages" "$hosts" "$done" "$wall" "$(echo "$done / $wall" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$user" "$sys" "$(du -h /tmp/m.jsonl | cut -f1)"
