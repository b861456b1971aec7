#!/bin/bash
# The round trip of issue 38: calibrate on a SimGrid platform, advise with the fitted network,
# and the replay on the platform itself confirms the predicted gain within 3 points.
#   1. rankmap calibrate under smpirun on the platform (2 switches of 4 hosts of 4 cores)
#      writes fit.net, the links as measured (nominal for SMPI's default model);
#   2. a job's traffic, a 3D stencil of 32 processes whose ranks were shuffled, placed packed
#      (present.placement: rank r on host r / 4, core r % 4), is advised on fit.net only;
#   3. rankmap simulate replays the traffic on the platform (30 iterations: the steady state the
#      prediction is of) under the present placement and the
#      advised one (the rankfile advise wrote): the simulated gain must be within 3 points of
#      the gain advise predicted.
set -uo pipefail
rankmap="$(realpath "$1")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
if ! command -v smpirun >/dev/null; then echo "smpirun missing (Debian libsimgrid-dev)"; exit 1; fi
cd "$dir" || exit 1
"$rankmap" topology --topology "tleaf 3 2 10Gbps:10us 4 10Gbps:2us 4 40GBps:0.5us" \
  --format simgrid >p.xml || fail "platform"
for h in 0 1 2 3 4 5 6 7; do for k in 0 1 2 3; do echo "n$h"; done; done >hosts
"$rankmap" calibrate --quick --output fit.net -- smpirun -np 32 -platform p.xml -hostfile hosts \
  >calibrate.log 2>&1 || fail "calibrate: $(tail -2 calibrate.log)"
cat calibrate.log fit.net
# The stencil's graph with its ranks shuffled (a fixed permutation).
"$rankmap" frontend stencil --grid 64x64x32 --stencil 7 --procs 32 --output st.grf >/dev/null ||
  fail "frontend"
perm=(5 17 30 2 11 24 8 19 0 27 14 3 22 9 31 16 6 25 12 1 20 29 7 15 23 4 28 10 18 26 13 21)
awk -v p="${perm[*]}" 'BEGIN { n = split(p, q, " ") }
  NR > 3 { v = NR - 4; for (k = 3; k <= NF; k += 2) if (v < $k) print q[v + 1], q[$k + 1], $(k - 1) }' \
  st.grf >g.edges
{
  echo "# rankmap placement of 32 ranks"
  for r in $(seq 0 31); do echo "$r n$((r / 4)) $((r % 4))"; done
} >present.placement
"$rankmap" advise --from-profile g.edges --placement present.placement --network-spec fit.net \
  --launcher openmpi --output adv --iterations 30 >advise.log 2>&1 || fail "advise: $(tail -2 advise.log)"
cat advise.log
predicted="$(sed -n 's/^advice: a predicted gain of \([0-9.]*\)%.*/\1/p' advise.log)"
[ -n "$predicted" ] || fail "advise: no gain predicted"
seq 0 31 >present.txt
simulated() {  # MAPPING: seconds per iteration on the platform itself
  "$rankmap" simulate --topology p.xml --comm g.edges --mapping "$1" --iterations 30 |
    sed -n 's/^simulated time per iteration *\([0-9.e+-]*\) s$/\1/p'
}
before="$(simulated present.txt)"
after="$(simulated adv/job.rankfile)"
echo "simulated on the platform: present $before s, advised $after s; predicted gain $predicted%"
awk -v b="$before" -v a="$after" -v p="${predicted:-0}" 'BEGIN {
  g = 100 * (1 - a / b); printf "simulated gain %.1f%%, predicted %.1f%%: %+.1f points\n", g, p, p - g
  exit !(b > 0 && a > 0 && (p - g) <= 3 && (g - p) <= 3) }' || fail "predicted gain off by more than 3 points"
[ "$failures" -eq 0 ] || exit 1
echo PASS
