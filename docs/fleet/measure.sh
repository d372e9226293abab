#!/usr/bin/env bash
# usage: bash docs/fleet/measure.sh [PROCESSES [PAGES [HOSTS]]]
# N crawl processes and one redis-server crawl a PAGES-page demo site of
# HOSTS hosts. Optional: KILL=1 kills one process with -9 mid-crawl;
# REDIS_STOP=5 stops Redis that many seconds mid-crawl (append-only file,
# fsync always) and starts it again. Prints the union check and the
# server's per-URL and per-host counts.
# Builds crawl and site into a temporary directory first (BIN=dir to use
# binaries built already): run it from the repository's root. Needs
# redis-server (Debian's package) and python3.
set -u
bin=${BIN:-}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  go build -o "$bin/crawl" ./cmd/crawl && go build -o "$bin/site" ./cmd/site || exit 1
fi
procs=${1:-3} pages=${2:-100000} hosts=${3:-8}
dir=$(mktemp -d)
rport=$((30000 + RANDOM % 2000))
(cd $dir && redis-server --port $rport --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir $dir --daemonize yes --logfile $dir/redis.log)
sleep 0.3
"$bin/site" -addr 127.0.0.1:0 -pages "$pages" -hosts $hosts -track-paths 400000 > $dir/site.out 2>/dev/null &
site=$!
for _ in $(seq 100); do [ "$(wc -l < $dir/site.out)" -ge $hosts ] && break; sleep 0.1; done
roots=$(head -n $hosts $dir/site.out)
start=$(date +%s.%N)
pids=()
for i in $(seq $procs); do
  r=""; [ $i = 1 ] && r=$roots
  "$bin/crawl" -q --report_urls 0 --redis redis://127.0.0.1:$rport/0 --crawl_id bench -o $dir/out$i.jsonl $r > $dir/report$i.txt 2>$dir/err$i.txt &
  pids+=($!)
  sleep 0.2
done
if [ "${KILL:-0}" = 1 ]; then
  sleep 2; kill -9 ${pids[0]}; echo "killed process 1 after $(wc -l < $dir/out1.jsonl) lines"
fi
if [ "${REDIS_STOP:-0}" != 0 ]; then
  sleep 2; redis-cli -p $rport shutdown >/dev/null 2>&1; echo "Redis stopped"; sleep "$REDIS_STOP"
  (cd $dir && redis-server --port $rport --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir $dir --daemonize yes --logfile $dir/redis.log); echo "Redis started again"
fi
for p in "${pids[@]}"; do wait $p; echo "exit $?"; done
echo "wall $(echo "$(date +%s.%N) - $start" | bc) s"
curl -s $(head -1 $dir/site.out)stats > $dir/stats.json
kill $site; redis-cli -p $rport shutdown nosave >/dev/null 2>&1
python3 - "$dir" "$procs" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
urls = []
for i in range(1, n + 1):
    try:
        lines = [json.loads(l)['url'] for l in open(f'{d}/out{i}.jsonl') if l.endswith('\n')]
    except FileNotFoundError:
        lines = []
    print(f"process {i}: {len(lines)} lines")
    urls += lines
print(f"union: {len(urls)} lines, {len(set(urls))} distinct")
st = json.load(open(d + '/stats.json'))
counts = {}
for i, h in enumerate(st['hosts']):
    for p, c in h['paths'].items():
        if p not in ('/robots.txt', '(other)'):
            counts[(i, p)] = c
print(f"server: {len(counts)} URLs fetched, {sum(1 for c in counts.values() if c == 2)} twice, {sum(1 for c in counts.values() if c > 2)} more; robots.txt {sum(h['paths'].get('/robots.txt', 0) for h in st['hosts'])}")
print("per-host peak in flight:", [h['peak_in_flight'] for h in st['hosts']])
PY
grep -h 'Fleet' -A12 $dir/report*.txt | grep -E 'duplicates|ok$' | head -4
grep -h 'fleet:' $dir/err*.txt | sort | uniq -c | sort -rn | head -5
echo "dir: $dir"
