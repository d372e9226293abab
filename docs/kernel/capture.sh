#!/usr/bin/env bash
# Captures what docs/kernel.md reads: docs/stages/9-syscalls under strace
# (with the server in a process of its own, so the capture holds only the
# client's system calls), the same with the loop locked to its thread,
# stage 3's twenty fetches counted by epoll instance, and perf stat where
# perf works. Rerun it to see your own machine's numbers:
#
#   bash docs/kernel/capture.sh            # writes to a new temporary directory
#   bash docs/kernel/capture.sh DIR        # writes to DIR
#
# docs/kernel/capture/ holds the run that docs/kernel.md quotes (a test
# checks the quotes against it); overwrite it only with the chapter.
#
# Needs Linux and strace. Without strace: apt-get install -y strace
# (Debian, Ubuntu), dnf install strace (Fedora), apk add strace (Alpine).
# perf is optional: apt-get install -y linux-perf (Debian) or
# linux-tools-$(uname -r) (Ubuntu); in a container it may be refused.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(uname -s)" != Linux ]; then
  echo "capture.sh: strace and epoll are Linux's (on macOS, dtruss shows kevent calls)" >&2; exit 1
fi
if ! command -v strace >/dev/null; then
  echo "capture.sh: strace is not installed: apt-get install -y strace (Debian, Ubuntu)," \
    "dnf install strace (Fedora), apk add strace (Alpine)" >&2; exit 1
fi
out=${1:-$(mktemp -d)}
mkdir -p "$out"
bin=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$bin"
}
trap cleanup EXIT

# Static binaries (CGO_ENABLED=0): no dynamic loader reading libc at start.
CGO_ENABLED=0 go build -o "$bin/stage9" ./docs/stages/9-syscalls
CGO_ENABLED=0 go build -o "$bin/stage3" ./docs/stages/3-callbacks

"$bin/stage9" -serve >"$bin/addr" &
server=$!
for _ in $(seq 200); do [ -s "$bin/addr" ] && break; sleep 0.05; done
addr=$(head -n 1 "$bin/addr")
[ -n "$addr" ] || { echo "capture.sh: the server never said where it listens" >&2; exit 1; }

calls=socket,connect,getsockopt,epoll_create1,epoll_ctl,epoll_wait,read,write,recvfrom,sendto,eventfd2,close
echo "== strace of one fetch (-f: every thread; -tt: wall clock; -T: time inside each call)"
strace -f -tt -T -e trace="$calls" -o "$out/strace.txt" \
  "$bin/stage9" -addr "$addr" -trace >"$out/stdout.txt" 2>"$out/trace.jsonl"
cat "$out/stdout.txt"
echo "   $(wc -l <"$out/strace.txt") lines in $out/strace.txt, the loop's own trace in $out/trace.jsonl"

echo "== which threads waited in epoll_wait, without and with runtime.LockOSThread (five runs each)"
for lock in false true; do
  for run in 1 2 3 4 5; do
    strace -f -e trace=epoll_wait -o "$bin/waits" "$bin/stage9" -addr "$addr" -lock="$lock" >/dev/null
    printf 'lock=%s run %s: %s epoll_wait calls on %s thread(s)\n' "$lock" "$run" \
      "$(grep -c epoll_wait "$bin/waits")" "$(grep epoll_wait "$bin/waits" | awk '{print $1}' | sort -u | wc -l)"
  done
done | tee "$out/threads.txt"

echo "== system calls of one fetch, counted (strace -c)"
strace -f -c -o "$out/counts.txt" "$bin/stage9" -addr "$addr" >/dev/null
head -n 30 "$out/counts.txt"

echo "== stage 3's twenty fetches: epoll_ctl and epoll_wait per epoll instance"
strace -f -e trace=epoll_create1,epoll_ctl,epoll_wait,epoll_pwait -o "$bin/s3" "$bin/stage3" >/dev/null
awk '
  /epoll_create1/ { n = split($0, f, "= "); created[f[n] + 0] = 1 }
  /epoll_ctl\(/ { split($0, a, /epoll_ctl\(|, /); ctl[a[2] "," a[3]]++ }
  /epoll_wait\(|epoll_pwait\(/ {
    split($0, a, /epoll_p?wait\(|, /); w = ($0 ~ /pwait/) ? "epoll_pwait" : "epoll_wait"
    waits[a[2] "," w]++
    if (!seen[a[2] "," $1]++) threads[a[2] "," w]++
  }
  END {
    for (k in ctl) { split(k, p, ","); printf "epoll instance %s: %s %d\n", p[1], p[2], ctl[k] }
    for (k in waits) { split(k, p, ","); printf "epoll instance %s: %s %d, from %d thread(s)\n", p[1], p[2], waits[k], threads[k] }
  }' "$bin/s3" | sort | tee "$out/stage3-epoll.txt"
echo "the Go runtime's registration of the last socket it opened (the demo server's, in the same process):" | tee -a "$out/stage3-epoll.txt"
grep 'EPOLLET' "$bin/s3" | tail -n 1 | tee -a "$out/stage3-epoll.txt"

echo "== perf stat of one fetch, without and with LockOSThread (20 runs each)"
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
  for lock in false true; do
    perf stat -r 20 -e task-clock,context-switches,cpu-migrations,page-faults \
      "$bin/stage9" -addr "$addr" -lock="$lock" 2>&1 >/dev/null | sed -n '/Performance/,$p'
  done | tee "$out/perf.txt"
else
  echo "perf is not installed, or not allowed here (perf_event_paranoid, or a container)" | tee "$out/perf.txt"
fi
echo "== written to $out"
