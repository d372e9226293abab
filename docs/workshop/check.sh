#!/usr/bin/env bash
# The workshop's own check, for CI: the exercises build and vet with and
# without their tags, every reference solution passes its tests, and every
# single test fails against its stub — run one test at a time, so that a
# stub that happens to pass one test cannot hide behind the others failing.
# Exits 0 only if all of that holds.
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { printf '%s\n' "$*"; }
fail() { say "workshop check: $*" >&2; exit 1; }

exercises=$(go list ./docs/workshop/... | grep -v '/internal/')
[ -n "$exercises" ] || fail "no exercise packages found"

say "== vet, under every combination of the workshop and solution tags"
for tags in "" workshop solution workshop,solution; do
  go vet -tags "$tags" ./docs/workshop/... || fail "go vet -tags '$tags' failed"
done

say "== the reference solutions pass (go test -race -tags workshop,solution)"
go test -count=1 -race -timeout 120s -tags workshop,solution ./docs/workshop/... ||
  fail "a reference solution fails its tests"

say "== every test fails against its stub (each test run alone with -run '^Test\$')"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
bad=0
for pkg in $exercises; do
  name=${pkg#loopkit/docs/workshop/}
  # Build the stub's test binary once, then run it once per test.
  go test -c -tags workshop -o "$bin/$name.test" "$pkg" || fail "$pkg does not build with -tags workshop"
  tests=$("$bin/$name.test" -test.list '.*' | grep '^Test' || true)
  [ -n "$tests" ] || fail "$pkg has no tests under -tags workshop"
  for t in $tests; do
    out=$("$bin/$name.test" -test.count=1 -test.timeout=60s -test.run "^${t}\$" 2>&1) && status=0 || status=$?
    if [ "$status" -eq 0 ]; then
      say "  PASSES against the stub: $name $t"
      bad=1
    elif ! grep -q -- "--- FAIL: ${t} " <<<"$out"; then
      # It failed, but not as a test (a crash, a timeout): that proves nothing.
      say "  did not fail as a test: $name $t"
      say "$out"
      bad=1
    else
      say "  fails, as it should: $name $t"
    fi
  done
done
[ "$bad" -eq 0 ] || fail "some stubs do not fail their tests"
say "workshop check: ok"
