#!/usr/bin/env bash
# Runs the quickstart and C examples and checks that the mapping beats identity.
set -euo pipefail
quickstart="$1"
c_api="$2"
front_door="$3"

out=$("$quickstart" "tleaf 3 2 100 2 10 4 1")
echo "$out"
# 16 processes: J must be below the identity placement's.
echo "$out" | awk '/J =/ { gsub(/[()]/, ""); if (!($4 < $6)) { print "quickstart: J not below identity"; exit 1 } }'
[ "$(echo "$out" | grep -c -- '-> leaf')" -eq 16 ]

out=$("$c_api")
echo "$out"
# The heavy pairs (v, v + 4) end up close, so J is far below identity's.
echo "$out" | awk '/J =/ { gsub(/[()]/, ""); if (!($3 < $5)) { print "c_api: J not below identity"; exit 1 } }'
[ "$(echo "$out" | grep -c -- '-> leaf')" -eq 8 ]
"$quickstart" "pack:0" && { echo "quickstart accepted a bad topology"; exit 1; } || true

out=$("$front_door")
echo "$out"
# By hand (tests/cli/objective_test.sh): T 2007.56 us now, 534.70 us with 0, 1
# and 2, 3 on one host each.
echo "$out" | grep -qE "^present order replaced by time: 2007.56 us -> 534.70 us, [24] moved"
[ "$(echo "$out" | awk '/-> leaf/ { print int($4 / 2) }' | sed -n '1p;2p' | uniq | wc -l)" -eq 1 ]
echo "examples ok"
