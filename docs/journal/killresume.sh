#!/usr/bin/env bash
# usage: bash docs/journal/killresume.sh [PAGES]
# kill -9 at three random points of a PAGES-page crawl with --state, each
# followed by a rerun of the same command; then the check, from the
# site's own per-host, per-path counts.
# Builds crawl and site into a temporary directory first: run it from the
# repository's root. Needs python3.
set -u
bin=$(mktemp -d)
go build -o "$bin/crawl" ./cmd/crawl && go build -o "$bin/site" ./cmd/site || exit 1
pages=${1:-200000} hosts=20 tasks=100
dir=$(mktemp -d)
"$bin/site" -addr 127.0.0.1:0 -pages "$pages" -hosts $hosts -track-paths 400000 > $dir/site.out 2>/dev/null &
site=$!
for _ in $(seq 100); do [ "$(wc -l < $dir/site.out)" -ge $hosts ] && break; sleep 0.1; done
roots=$(head -n $hosts $dir/site.out)
cmd=("$bin/crawl" -q --report_urls 0 --max_tasks $tasks -o $dir/out.jsonl --state $dir/state $roots)
for k in 1 2 3; do
  "${cmd[@]}" > /dev/null 2>>$dir/err.txt &
  pid=$!
  sleep "$(python3 -c 'import random; print(round(random.uniform(1, 3.5), 2))')"
  lines=$(wc -l < $dir/out.jsonl)
  kill -9 $pid; wait $pid 2>/dev/null
  echo "kill $k after $lines lines"
done
start=$(date +%s.%N)
"${cmd[@]}" > $dir/report.txt 2>>$dir/err.txt; echo "final run exit $?, $(echo "$(date +%s.%N) - $start" | bc) s"
grep -E 'resuming|cut' $dir/err.txt
curl -s $(head -1 $dir/site.out)stats > $dir/stats.json
kill $site; wait $site 2>/dev/null
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
urls = [json.loads(l)['url'] for l in open(d + '/out.jsonl')]
print(f"JSONL: {len(urls)} lines, {len(set(urls))} distinct")
st = json.load(open(d + '/stats.json'))
counts = {}
for i, h in enumerate(st['hosts']):
    for p, n in h['paths'].items():
        counts[(i, p)] = n
pages = {k: v for k, v in counts.items() if k[1] != '/robots.txt'}
twice = sum(1 for v in pages.values() if v == 2)
more = sum(1 for v in pages.values() if v > 2)
pages = {k: v for k, v in pages.items() if k[1] != "(other)"}
print(f"server: {len(pages)} paths fetched, {twice} twice, {more} more than twice, robots.txt {sum(v for k, v in counts.items() if k[1] == '/robots.txt')}")
PY
echo "state dir: $dir"
