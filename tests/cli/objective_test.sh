#!/bin/bash
# The time objective and the present order through the command line. Four processes on two
# hosts of two cores (`tleaf 2 2 25Gbps:1us 2 40GBps:0.5us`): processes 0 and 1 exchange 1,000
# messages of 8 bytes, 0 and 2 one message of 100,000 bytes. By bytes (J) 0 belongs with 2; by
# time (messages x latency + bytes / bandwidth) with 1. The counts come from app.msgs.mat beside
# app.mat, as the profiler writes them. Hand computation, per pair crossing the hosts:
# 0-1: 1000 x 2 us + 8000 B / 3.125 GB/s = 2002.56 us; 0-2: 2 us + 100000 / 3.125e9 = 34 us.
set -uo pipefail
rankmap="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
T="tleaf 2 2 25Gbps:1us 2 40GBps:0.5us"
printf '0 8000 100000 0\n0 0 0 0\n0 0 0 10\n0 0 0 0\n' >"$dir/app.mat"
printf '0 1000 1 0\n0 0 0 0\n0 0 0 1\n0 0 0 0\n' >"$dir/app.msgs.mat"
# Host of a process in a plain mapping (leaf / 2).
host() { echo $(($(sed -n "$(($2 + 1))p" "$1") / 2)); }

"$rankmap" map --topology "$T" --comm "$dir/app.mat" --output "$dir/time.txt" \
  >"$dir/time.log" 2>&1 || fail "map failed: $(cat "$dir/time.log")"
[ "$(host "$dir/time.txt" 0)" = "$(host "$dir/time.txt" 1)" ] ||
  fail "time objective: 0 and 1 apart: $(paste -sd' ' "$dir/time.txt")"
grep -qx "messages from app.msgs.mat: 1002 over 3 pairs" "$dir/time.log" ||
  fail "no messages line: $(cat "$dir/time.log")"
# The identity already keeps 0 with 1: it is kept, and the line says so.
grep -q "^present order (identity): kept; the best mapping found is no faster (predicted " "$dir/time.log" ||
  fail "no verdict line: $(cat "$dir/time.log")"
[ "$(paste -sd' ' "$dir/time.txt")" = "0 1 2 3" ] || fail "identity not kept: $(paste -sd' ' "$dir/time.txt")"

"$rankmap" map --topology "$T" --comm "$dir/app.mat" --objective j --output "$dir/j.txt" \
  >"$dir/j.log" 2>&1 || fail "map --objective j failed: $(cat "$dir/j.log")"
[ "$(host "$dir/j.txt" 0)" = "$(host "$dir/j.txt" 2)" ] ||
  fail "J objective: 0 and 2 apart: $(paste -sd' ' "$dir/j.txt")"

# A present order that splits 0 from 1 is replaced, by a margin far above 2%.
printf '0\n2\n1\n3\n' >"$dir/now.txt"
"$rankmap" map --topology "$T" --comm "$dir/app.mat" --present "$dir/now.txt" --output "$dir/p.txt" \
  >"$dir/p.log" 2>&1 || fail "map --present failed: $(cat "$dir/p.log")"
# The deciding measure is the predicted time of an iteration (core/objective/link_load.h, SMPI's default
# model): 0 and 1 exchange in 500 rounds of one 8-byte message each way. By hand:
# present (0-1 across the hosts): an 8-byte message takes 2 us x 2.01467 (latency factor) +
# 8 B / (3.125 GB/s x 0.812084) = 4.032492 us; round 0 also sends 100 kB from 0 to 2 inside a
# host, synchronously: 0.5 us x 11.6436 = 5.8218 us of latency, then the loopback carries
# 100 kB and 5% more of acknowledgements at 40 GB/s x 0.940694: 2.7907 us, 8.6125 us in all;
# then 499 rounds each one message later than the other side: 8.6125 + 499 x 4.032492 =
# 2020.83 us. Proposed (0-1 inside a host, 0-2 across): round 0 ends with the 100 kB crossing,
# 2 us x 11.6436 + 100000 / (3.125 GB/s x 0.940694) = 57.3047 us; an 8-byte message on the
# loopback takes 1.007335 + 0.000246 us: 57.3047 + 499 x 1.007581 = 560.09 us, 72.3% less.
grep -qF "present order ($dir/now.txt): replaced; this mapping is 72.3% faster (predicted 0.0005601 s against 0.002021 s per iteration), 2 processes moved" "$dir/p.log" ||
  fail "no replaced line: $(cat "$dir/p.log")"
[ "$(host "$dir/p.txt" 0)" = "$(host "$dir/p.txt" 1)" ] || fail "--present: 0 and 1 apart"

# Without counts the objective is J; asking for time then is one line, exit 2.
error "time without counts" "the time objective needs message counts" \
  map --topology "$T" --comm "$dir/app.mat" --messages none --objective time --quiet
error "unknown objective" "--objective: unknown objective 'fastest'" \
  map --topology "$T" --comm "$dir/app.mat" --objective fastest
error "margin" "--keep-margin: '1.5' is out of range" map --topology "$T" --comm "$dir/app.mat" --keep-margin 1.5
[ "$failures" -eq 0 ] || exit 1
echo "PASS"
