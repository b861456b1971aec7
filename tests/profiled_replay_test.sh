#!/usr/bin/env bash
# A profiled application simulated under any mapping: the 3D stencil runs under Open MPI with
# librankmap_profile.so preloaded; its recorded traffic must be the stencil front end's graph
# (iterations + 1 warm-up exchanges, plus the 8-byte reduction of the timing to rank 0 under
# the profiler's star model of collectives), and
# `rankmap simulate` replays the recorded .mat under the identity and under rankmap's mapping
# (2 hosts of 4 cores, plain SMPI model): the mapping is never slower. The replay finds the
# profile's message counts beside the .mat (app.msgs.mat) and sends every recorded message.
set -u
stencil="$1" profile="$2" rankmap="$3"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
profile="$(abs "$profile")"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

LD_PRELOAD="$profile" RANKMAP_PROFILE_OUT="$tmp/app" RANKMAP_PROFILE_COLLECTIVES=star \
  mpirun --oversubscribe -np 8 -x LD_PRELOAD -x RANKMAP_PROFILE_OUT -x RANKMAP_PROFILE_COLLECTIVES \
  "$stencil" --grid=8x8x8 --iterations=2 >"$tmp/run.out" 2>&1 || fail "profiled run: $(cat "$tmp/run.out")"
[ -s "$tmp/app.mat" ] || fail "no profile written: $(cat "$tmp/run.out")"

# The front end's graph per iteration, as an edge list.
"$rankmap" frontend stencil --grid 8x8x8 --stencil 7 --procs 8 --output "$tmp/fe.edges" \
  >/dev/null 2>&1 || fail "frontend"
# Profiled bytes i -> j (both directions summed) against 3 x the front end's weight, plus 8
# for every pair with rank 0 (each rank reduces one double to rank 0); '#' lines are comments.
awk -v fe="$tmp/fe.edges" '
  BEGIN { row = 0; while ((getline line < fe) > 0) { if (line ~ /^#/ || line == "") continue;
            split(line, f, " "); w[f[1] < f[2] ? f[1] " " f[2] : f[2] " " f[1]] = f[3] } }
  /^#/ { next }
  { for (j = 1; j <= NF; j++) m[row, j - 1] = $j; row++; n = NF }
  END { bad = 0
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
      got = m[i, j] + m[j, i]; want = 3 * ((i " " j) in w ? w[i " " j] : 0) + (i == 0 ? 8 : 0)
      if (got != want) { print "pair " i " " j ": profiled " got ", expected " want; bad++ } }
    exit bad != 0 }' "$tmp/app.mat" || fail "profiled traffic differs from the front end's"

topo="tleaf 2 2 1GBps:10us 4 10GBps:1us"
seq 0 7 >"$tmp/identity.map"
"$rankmap" map --topology "$topo" --comm "$tmp/app.mat" >"$tmp/mapped.map" 2>"$tmp/map.err" ||
  fail "map: $(cat "$tmp/map.err")"
t() {
  "$rankmap" simulate --topology "$topo" --comm "$tmp/app.mat" --mapping "$1" \
    --smpi_model exact --iterations 3 2>"$tmp/sim.err" | awk '/simulated time per iteration/ { print $5 }'
}
# Every recorded message is replayed: the plan's count is the sum of app.msgs.mat.
recorded=$(awk '!/^#/ { for (j = 1; j <= NF; j++) s += $j } END { print s }' "$tmp/app.msgs.mat")
"$rankmap" simulate --topology "$topo" --comm "$tmp/app.mat" --mapping "$tmp/identity.map" \
  --smpi_model exact --iterations 1 >"$tmp/counts.out" 2>&1 || fail "simulate: $(cat "$tmp/counts.out")"
grep -q "^messages from app.msgs.mat: $recorded per iteration" "$tmp/counts.out" ||
  fail "expected $recorded recorded messages replayed: $(cat "$tmp/counts.out")"
identity=$(t "$tmp/identity.map")
mapped=$(t "$tmp/mapped.map")
[ -n "$identity" ] && [ -n "$mapped" ] || fail "simulate: $(cat "$tmp/sim.err")"
awk -v a="$mapped" -v b="$identity" 'BEGIN { exit !(a > 0 && a <= b) }' ||
  fail "mapped $mapped s slower than identity $identity s"
echo "profiled stencil replayed: identity $identity s, mapped $mapped s per iteration"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
