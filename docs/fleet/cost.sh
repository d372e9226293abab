#!/usr/bin/env bash
# usage: bash docs/fleet/cost.sh [PROCESSES [PAGES [HOSTS]]]
# What the fleet costs Redis: N crawl processes and one redis-server (in
# memory) crawl a PAGES-page demo site of HOSTS hosts; then Redis's own
# counters say how many commands it ran per page and how much CPU it spent
# per 1,000 pages. Two runs: the first with MONITOR, which tells the
# commands the crawlers sent from those their scripts called; the second
# without, for the CPU (MONITOR costs Redis CPU of its own).
# Builds crawl and site into a temporary directory first (BIN=dir to use
# binaries built already): run it from the repository's root. Needs
# redis-server and redis-cli (Debian's redis-server package).
set -u
procs=${1:-3} pages=${2:-20000} hosts=${3:-8}
bin=${BIN:-}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  go build -o "$bin/crawl" ./cmd/crawl && go build -o "$bin/site" ./cmd/site || exit 1
fi
dir=$(mktemp -d)
rport=$((32000 + RANDOM % 2000))
cli() { redis-cli -p $rport "$@"; }
redis-server --port $rport --bind 127.0.0.1 --save '' --appendonly no --dir $dir --daemonize yes --logfile $dir/redis.log
for _ in $(seq 50); do cli ping >/dev/null 2>&1 && break; sleep 0.1; done
"$bin/site" -addr 127.0.0.1:0 -pages "$pages" -hosts $hosts > $dir/site.out 2>/dev/null &
site=$!
for _ in $(seq 100); do [ "$(wc -l < $dir/site.out)" -ge $hosts ] && break; sleep 0.1; done
roots=$(head -n $hosts $dir/site.out)
cpu() { cli info cpu | awk -F: '/^used_cpu_(sys|user):/ {s += $2} END {printf "%.3f", s}'; }
crawl() { # one crawl of the site, as crawl id $1
  local pids=() i
  for i in $(seq $procs); do
    "$bin/crawl" -q --report_urls 0 --redis redis://127.0.0.1:$rport/0 --crawl_id "$1" -o $dir/$1.$i.jsonl $roots > $dir/$1.report$i 2>$dir/$1.err$i &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait $p || echo "a crawl exited $?: $(cat $dir/$1.err*)"; done
  cat $dir/$1.*.jsonl | wc -l
}
# 1. Commands: every command Redis ran, as MONITOR shows them; a script's
# own calls are marked "lua".
stdbuf -oL redis-cli -p $rport monitor > $dir/monitor.txt &
mon=$!
sleep 0.2
n1=$(crawl counted)
sleep 0.5
kill $mon; wait $mon 2>/dev/null
sent=$(grep -c -v -e ' lua\]' -e '^OK$' $dir/monitor.txt)
inner=$(grep -c ' lua\]' $dir/monitor.txt)
# 2. CPU, without MONITOR.
cli config resetstat >/dev/null
before=$(cpu)
n2=$(crawl timed)
after=$(cpu)
calls=$(cli info commandstats | awk -F'[=,]' '/^cmdstat_/ && !/cmdstat_(info|config|monitor)/ {s += $2} END {print s}')
kill $site; cli shutdown nosave >/dev/null 2>&1 || true
echo "processes $procs, site of $pages pages on $hosts hosts"
echo "run 1 (MONITOR): $n1 pages; $sent commands sent, $(echo "scale=2; $sent / $n1" | bc) per page; $inner more called by scripts"
echo "run 2: $n2 pages; Redis CPU $(echo "scale=1; ($after - $before) * 1000000 / $n2" | bc) ms per 1,000 pages; $calls commands run in all, scripts' calls included ($(echo "scale=1; $calls / $n2" | bc) per page)"
echo "dir: $dir"
