#!/usr/bin/env bash
# usage: bash docs/journal/growth.sh PAGES HOSTS [crawl flags...]
# What a crawl keeps on disk, per URL, and what it costs in CPU: the demo
# site of PAGES pages over HOSTS hosts in its own process; the crawl
# command with -o and --state. Every second the lab reads the size of
# each kind of file under the state directory and keeps each one's peak:
# the journals; the snapshots and the done log (and the small files); the
# seen files (the snapshot's, and the seen set's own sorted files in the
# spill directory, seen-*); and the queue's chunks in the spill directory. At the end it prints the crawl's pages, wall time, CPU,
# peak RSS, each peak in bytes and per page, -o's bytes per record, and
# what the crawl said of its seen set.
# Builds crawl and site into a temporary directory first: run it from the
# repository's root.
set -u
pages=$1 hosts=$2
shift 2
bin=$(mktemp -d)
go build -o "$bin/crawl" ./cmd/crawl && go build -o "$bin/site" ./cmd/site || exit 1
dir=$(mktemp -d)
: > "$dir/site.out"
"$bin/site" -addr 127.0.0.1:0 -pages "$pages" -hosts "$hosts" > "$dir/site.out" 2>/dev/null &
site=$!
for _ in $(seq 600); do [ "$(wc -l < "$dir/site.out")" -ge "$hosts" ] && break; sleep 0.1; done
roots=$(head -n "$hosts" "$dir/site.out")
/usr/bin/time -f "%e %M %U %S" -o "$dir/time" "$bin/crawl" --report_urls 0 -o "$dir/out.jsonl" \
  --state "$dir/state" "$@" $roots > /dev/null 2> "$dir/err.txt" &
crawl=$!
# sizes prints the bytes of the journals, the snapshots and the done log,
# the seen files (the snapshot's and the seen set's own), and the queue's
# chunks.
sizes() {
  find "$dir/state" -type f -printf '%s %P\n' 2>/dev/null | awk '
    $2 ~ /^journal/        { j += $1; next }
    $2 ~ /(^|\/)seen/      { s += $1; next }
    $2 ~ /^spill\//        { q += $1; next }
                           { n += $1 }
    END { printf "%d %d %d %d\n", j, n, s, q }'
}
pj=0 pn=0 ps=0 pq=0 pt=0
while kill -0 $crawl 2>/dev/null; do
  read -r j n s q < <(sizes)
  t=$((j + n + s + q))
  ((j > pj)) && pj=$j
  ((n > pn)) && pn=$n
  ((s > ps)) && ps=$s
  ((q > pq)) && pq=$q
  ((t > pt)) && pt=$t
  sleep 1
done
wait $crawl
read -r wall rss user sys < "$dir/time"
kill $site
wait $site 2>/dev/null
done=$(wc -l < "$dir/out.jsonl")
out=$(stat -c %s "$dir/out.jsonl")
per() { echo "scale=1; $1 / $done" | bc; }
printf 'pages=%s hosts=%s done=%s wall=%ss pages/s=%.0f CPU=%ss (%.1f us/page) peakRSS=%.0fMiB\n' \
  "$pages" "$hosts" "$done" "$wall" "$(echo "$done / $wall" | bc -l)" "$(echo "$user + $sys" | bc)" \
  "$(echo "($user + $sys) * 1000000 / $done" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
printf 'peak bytes (per page): journals %d (%s), snapshots and done log %d (%s), seen files %d (%s), queue chunks %d (%s), all at once %d (%s); -o %d (%s)\n' \
  "$pj" "$(per $pj)" "$pn" "$(per $pn)" "$ps" "$(per $ps)" "$pq" "$(per $pq)" "$pt" "$(per $pt)" "$out" "$(per $out)"
grep -E 'seen set|queue:' "$dir/err.txt"
rm -rf "$dir" "$bin"
