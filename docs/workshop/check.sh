#!/usr/bin/env bash
# The workshop's own check, run by CI. It proves every exercise three ways:
#
#   1. its reference solution (docs/workshop/solutions/NAME/) passes the
#      exercise's tests, under the race detector;
#   2. every single test fails against the exercise's stub — each test run
#      alone, so that a stub cannot pass one test while the others'
#      failures hide it;
#   3. every known wrong answer (solutions/NAME/wrong/*.diff: a small edit
#      of the reference solution) builds and fails, in the test its header
#      names; every known right answer (solutions/NAME/right/*.diff, a
#      different correct solution) passes.
#
# The stub is the exercise.go in the tree. One that passes tests and
# differs from the exercise.go committed at HEAD is most likely a
# learner's work (solved, or on its way): then the committed stub is
# checked in its place, and the output says so. A learner's own progress
# is `go run ./docs/workshop list`.
#
# Nothing in the tree is touched: go's -overlay flag puts the solutions,
# or the committed stubs, in the place of each exercise.go for one command.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
ws=docs/workshop

say() { printf '%s\n' "$*"; }
fail() {
  say "workshop check: FAILED: $*" >&2
  exit 1
}

tmp=$(mktemp -d)
build="" # the stubs' test build, which runs in the background
trap '[ -z "$build" ] || kill "$build" 2>/dev/null; rm -rf "$tmp"' EXIT

names=()
for f in "$ws"/*/exercise.go; do
  names+=("$(basename "$(dirname "$f")")")
done
[ ${#names[@]} -gt 0 ] || fail "no exercises found under $ws"
pkgs=()
for n in "${names[@]}"; do pkgs+=("./$ws/$n"); done

# The solutions overlay maps every file of an exercise's solution onto the
# file of the same name in the exercise's package.
sol=()
for n in "${names[@]}"; do
  ls "$ws/solutions/$n"/*.go >/dev/null 2>&1 || fail "$n has no reference solution in $ws/solutions/$n/"
  for f in "$ws/solutions/$n"/*.go; do
    sol+=("\"$root/$ws/$n/$(basename "$f")\": \"$root/$f\"")
  done
done
join() { local IFS=,; echo "{\"Replace\": {$*}}"; }
join "${sol[@]}" >"$tmp/solutions.json"

# changed: the exercises whose exercise.go differs from the one committed
# at HEAD, kept in $tmp/shipped/NAME/exercise.go.
changed=" "
if git rev-parse --verify -q HEAD >/dev/null 2>&1; then
  for n in "${names[@]}"; do
    mkdir -p "$tmp/shipped/$n"
    if git show "HEAD:$ws/$n/exercise.go" >"$tmp/shipped/$n/exercise.go" 2>/dev/null &&
      ! cmp -s "$tmp/shipped/$n/exercise.go" "$ws/$n/exercise.go"; then
      changed+="$n "
    fi
  done
fi

say "== vet: the exercises and their tests, with the stubs and with the solutions"
if ! go vet -tags workshop "${pkgs[@]}"; then
  [ "$changed" = " " ] || say "(you have changed:$changed— if you are in the middle of one, finish it first;
 go run ./docs/workshop verify NAME shows how it stands)"
  fail "go vet, with the exercise.go files in the tree"
fi
go vet -tags workshop,solution -overlay "$tmp/solutions.json" "${pkgs[@]}" || fail "go vet, with the solutions"

# The stubs' test binaries build meanwhile: the race run waits a lot.
go test -c -tags workshop -o "$tmp/bin/" "${pkgs[@]}" >"$tmp/build.log" 2>&1 &
build=$!

say "== every reference solution passes its tests (go test -race)"
if ! out=$(go test -count=1 -race -timeout 120s -tags workshop,solution \
  -overlay "$tmp/solutions.json" "${pkgs[@]}" 2>&1); then
  say "$out"
  fail "a reference solution fails its exercise's tests (above)"
fi
sed -nE "s|^ok[[:space:]]+loopkit/$ws/([^[:space:]]+).*|  solution passes: \\1|p" <<<"$out"

say "== every test fails against its stub (each test run alone)"
if ! wait "$build"; then
  build=""
  cat "$tmp/build.log"
  fail "an exercise does not build with its tests"
fi
build=""

# run_each BIN DIR runs each test of BIN alone, and writes to DIR how many
# there are (count), those that passed (passed), and those that failed not
# as a test — a panic, a timeout (crashed, with their output in crash.out).
run_each() {
  local t out
  mkdir -p "$2"
  : >"$2/passed"
  : >"$2/crashed"
  : >"$2/crash.out"
  "$1" -test.list '.*' | grep '^Test' >"$2/tests" || true
  while read -r t; do
    if out=$("$1" -test.count=1 -test.timeout=30s -test.run "^${t}\$" 2>&1); then
      echo "$t" >>"$2/passed"
    elif ! grep -q -- "--- FAIL: ${t} " <<<"$out"; then
      echo "$t" >>"$2/crashed"
      echo "$out" >>"$2/crash.out"
    fi
  done <"$2/tests"
}
export -f run_each
# results DIR sets count, passed and crashed from what run_each wrote.
results() {
  count=$(wc -l <"$1/tests")
  mapfile -t passed <"$1/passed"
  mapfile -t crashed <"$1/crashed"
}
# The exercises' stubs run four at a time: they fail fast, bar a few that
# fail by a guard's timer (a stub that blocks its loop, say).
for n in "${names[@]}"; do echo "$n"; done |
  xargs -P 4 -I{} bash -c 'run_each "$1/bin/$2.test" "$1/res/$2"' _ "$tmp" {}

bad=0 total=0 recheck=()
for n in "${names[@]}"; do
  results "$tmp/res/$n"
  total=$((total + count))
  if [ "$count" -eq 0 ]; then
    say "  $n: no tests"
    bad=1
  elif [ ${#passed[@]} -eq 0 ] && [ ${#crashed[@]} -eq 0 ]; then
    say "  stub fails all $count tests, as it should: $n"
  elif [[ $changed == *" $n "* ]]; then
    recheck+=("$n") # yours: check the one shipped instead, below
  elif [ ${#crashed[@]} -gt 0 ]; then
    say "  $n: ${crashed[*]} crashed or hung against the stub, which proves nothing:"
    cat "$tmp/res/$n/crash.out"
    bad=1
  else
    say "  $n: the stub passes ${passed[*]} (of $count): a test that passes with the exercise undone proves nothing"
    say "    (solved $n and committed it? This check is about the stubs as committed; your progress: go run ./docs/workshop list)"
    bad=1
  fi
done

# A changed exercise.go that passes tests is most likely a learner's work.
# Its tests are checked against the stub committed at HEAD instead.
if [ ${#recheck[@]} -gt 0 ]; then
  over=() rpkgs=()
  for n in "${recheck[@]}"; do
    over+=("\"$root/$ws/$n/exercise.go\": \"$tmp/shipped/$n/exercise.go\"")
    rpkgs+=("./$ws/$n")
  done
  join "${over[@]}" >"$tmp/shipped.json"
  go test -c -tags workshop -overlay "$tmp/shipped.json" -o "$tmp/shipped-bin/" "${rpkgs[@]}" ||
    fail "the stubs committed at HEAD do not build with the tests in the tree (${recheck[*]})"
  for n in "${recheck[@]}"; do
    results "$tmp/res/$n"
    mine=${#passed[@]}
    run_each "$tmp/shipped-bin/$n.test" "$tmp/shipped-res/$n"
    results "$tmp/shipped-res/$n"
    if [ ${#passed[@]} -eq 0 ] && [ ${#crashed[@]} -eq 0 ]; then
      say "  stub fails all $count tests, as it should: $n — the one committed at HEAD;"
      say "    your own $n/exercise.go passes $mine of them (progress: go run ./docs/workshop list)"
    else
      say "  $n: the stub committed at HEAD passes ${passed[*]}${crashed[*]:+, crashes in ${crashed[*]}}: such a test proves nothing"
      bad=1
    fi
  done
fi
[ "$bad" -eq 0 ] || fail "some stubs do not fail their tests (above)"

say "== every known wrong answer fails, every known right answer passes"
# answer NAME DIFF KIND builds the reference solution of NAME with DIFF
# applied, runs its tests, and writes one line to $tmp/ans/NAME.KIND.SLUG:
# "ok ..." when the answer did what its kind says, "bad ..." when not.
answer() {
  local n=$1 diff=$2 kind=$3 slug dir res caught race="" out
  slug=$(basename "$diff" .diff)
  dir="$tmp/ans/$n/$kind-$slug"
  res="$tmp/ans/$n.$kind.$slug"
  mkdir -p "$dir"
  cp "$ws/solutions/$n"/*.go "$dir/"
  # git apply outside any repository is a strict patch: no fuzz, every
  # line of context must match. The ceiling keeps git from finding one.
  if ! (cd "$dir" && GIT_CEILING_DIRECTORIES=$(dirname "$tmp") git apply -p1 "$root/$diff") 2>"$dir/apply.log"; then
    echo "bad $diff does not apply to the reference solution: $(cat "$dir/apply.log")" >"$res"
    return
  fi
  local over=()
  for f in "$dir"/*.go; do
    over+=("\"$root/$ws/$n/$(basename "$f")\": \"$f\"")
  done
  join "${over[@]}" >"$dir/overlay.json"
  # A wrong answer that is a data race says so ("Race: yes"); the rest
  # build faster, and use less memory, without the race detector.
  grep -q '^Race: yes' "$diff" && race=-race
  if ! go test -c $race -tags workshop,solution -overlay "$dir/overlay.json" -o "$dir/t.test" "./$ws/$n" >"$dir/build.log" 2>&1; then
    echo "bad $diff does not build (a learner's answer would): $(head -5 "$dir/build.log")" >"$res"
    return
  fi
  out=$(cd "$ws/$n" && "$dir/t.test" -test.count=1 -test.timeout=90s 2>&1)
  local status=$?
  if [ "$kind" = right ]; then
    if [ $status -eq 0 ]; then
      echo "ok" >"$res"
    else
      echo "bad $diff is a right answer, and fails: $(grep -- '--- FAIL' <<<"$out" | head -3)" >"$res"
    fi
    return
  fi
  caught=$(sed -n 's/^Caught by: //p' "$diff")
  if [ $status -eq 0 ]; then
    echo "bad $diff passes every test: no test knows this wrong answer" >"$res"
  elif [ -z "$caught" ]; then
    echo "bad $diff has no \"Caught by: TestName\" line" >"$res"
  elif ! grep -q -- "--- FAIL: $caught " <<<"$out"; then
    echo "bad $diff fails, but not in $caught, the test it names: $(grep -- '--- FAIL' <<<"$out" | head -3)" >"$res"
  else
    echo "ok" >"$res"
  fi
}
export -f answer join
export tmp root ws
jobs=()
for n in "${names[@]}"; do
  for kind in wrong right; do
    for d in "$ws/solutions/$n/$kind"/*.diff; do
      [ -e "$d" ] && jobs+=("$n $d $kind")
    done
  done
done
# Two at a time: each is a build, and the machine has few cores.
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'answer "$@"' _ ||
  fail "checking the known answers stopped (above)"
bad=0 wrongs=0 rights=0
for n in "${names[@]}"; do
  w=0 r=0
  for f in "$tmp/ans/$n".*; do
    [ -e "$f" ] || continue
    if grep -q '^bad' "$f"; then
      say "  ${n}: $(sed 's/^bad //' "$f")"
      bad=1
    elif [[ $f == *.wrong.* ]]; then
      w=$((w + 1))
    else
      r=$((r + 1))
    fi
  done
  [ "$w" -gt 0 ] || { say "  $n: no known wrong answers in $ws/solutions/$n/wrong/"; bad=1; }
  say "  $n: $w wrong answer(s) caught, each by the test it names; $r right answer(s) pass"
  wrongs=$((wrongs + w)) rights=$((rights + r))
done
[ "$bad" -eq 0 ] || fail "some known answers did not do what they should (above)"
say "workshop check: ok — ${#names[@]} exercises: every solution passes; each of $total tests fails against its stub;
  $wrongs known wrong answers fail, $rights known right answers pass"
