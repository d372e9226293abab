#!/usr/bin/env bash
# usage: bash docs/journal/replay.sh MILLIONS [CRAWL]
# What a restart costs: a crawl of MILLIONS million pages (1 or more; a
# site process of a million pages over 20 hosts for each million) is
# killed with kill -9 once half of it is done; then the same command is
# started three times on copies of what it left, and each time the lab
# notes how long the first request took to reach the site, and the
# crawl's peak RSS until then. The crawl's own peak, until the kill, is
# the bar replay's must stay under.
# Builds crawl (or takes CRAWL, a binary) and site into a temporary
# directory first: run it from the repository's root. Needs python3.
set -u
millions=$1
bin=$(mktemp -d)
crawl=${2:-$bin/crawl}
[ -n "${2:-}" ] || go build -o "$bin/crawl" ./cmd/crawl || exit 1
go build -o "$bin/site" ./cmd/site || exit 1
dir=$(mktemp -d)
sites=() roots=""
for i in $(seq "$millions"); do
  "$bin/site" -addr 127.0.0.1:0 -pages 1000000 -hosts 20 > "$dir/site$i.out" 2>/dev/null &
  sites+=($!)
  for _ in $(seq 100); do [ "$(wc -l < "$dir/site$i.out")" -ge 20 ] && break; sleep 0.1; done
  roots="$roots $(head -n 20 "$dir/site$i.out" | tr '\n' ' ')"
done
requests() {
  local n=0 r
  for i in $(seq "$millions"); do
    r=$(curl -s "$(head -1 "$dir/site$i.out")stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
    n=$((n + r))
  done
  echo $n
}
cmd=("$crawl" -q --report_urls 0 -o "$dir/out.jsonl" --state "$dir/state" $roots)
"${cmd[@]}" > /dev/null 2> "$dir/err.txt" &
pid=$! start=$(date +%s.%N)
while sleep 1; do
  [ "$(wc -l < "$dir/out.jsonl")" -ge $((millions * 500000)) ] && break
  kill -0 $pid 2>/dev/null || break
done
crawlpeak=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$pid/status)
kill -9 $pid; wait $pid 2>/dev/null
echo "killed after $(wc -l < "$dir/out.jsonl") pages, $(echo "$(date +%s.%N) - $start" | bc) s; the crawl's peak RSS ${crawlpeak} MiB; state $(du -sh "$dir/state" | cut -f1), -o $(du -h "$dir/out.jsonl" | cut -f1)"
mkdir "$dir/saved" && cp -r "$dir/state" "$dir/out.jsonl" "$dir/saved/"
for try in 1 2 3; do
  rm -rf "$dir/state" "$dir/out.jsonl" && cp -r "$dir/saved/state" "$dir/saved/out.jsonl" "$dir/"
  sync
  before=$(requests)
  start=$(date +%s.%N)
  "${cmd[@]}" > /dev/null 2> "$dir/err.txt" &
  pid=$!
  until [ "$(requests)" -gt "$before" ]; do
    kill -0 $pid 2>/dev/null || { echo "the crawl ended before its first request"; break; }
    sleep 0.02
  done
  took=$(echo "$(date +%s.%N) - $start" | bc)
  peak=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$pid/status)
  kill -9 $pid; wait $pid 2>/dev/null
  echo "start $try: first request after ${took} s; peak RSS until then ${peak} MiB; load $(cut -d' ' -f1 /proc/loadavg)"
done
for s in "${sites[@]}"; do kill "$s"; wait "$s" 2>/dev/null; done
rm -rf "$dir" "$bin"
