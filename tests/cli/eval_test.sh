#!/usr/bin/env bash
# `rankmap eval` on what users hand it: every mapping format `map` writes,
# n-to-1 mappings, parameter files (checked before any output, selectors by
# kind inside merged kinds and by class, network specs) and trees whose nodes
# differ. Expected numbers are computed by hand in the comments.
set -u
rankmap="$1"
data="$(dirname "$0")/data"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
t4="tleaf 2 2 10 2 1"

# expect NAME WANT ARGS...: exit 0 and a stdout line equal to WANT.
expect() {
  local name="$1" want="$2"; shift 2
  if ! "$rankmap" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
    fail "$name: exit $?: $(cat "$tmp/$name.err")"; return
  fi
  grep -qxF -- "$want" "$tmp/$name.out" || { fail "$name: no line '$want' in:"; cat "$tmp/$name.out"; }
}

# Every format map writes is read back: the same J as map reports (cycle4 on
# t4, round-robin: 0 1 2 3 -> leaves 0 2 1 3, J = 4 * 5 * 11 = 220).
for f in plain json; do
  "$rankmap" map --topology "$t4" --comm "$data/cycle4.edges" --algorithm round-robin \
    --format "$f" --output "$tmp/m.$f" >/dev/null 2>"$tmp/map.err" || fail "map $f: $(cat "$tmp/map.err")"
  expect "read_$f" "J                220" eval --topology "$t4" --comm "$data/cycle4.edges" \
    --mapping "$tmp/m.$f"
done
# Rankfiles need a machine with hosts: two hosts of two cores with two threads
# (PUs 0, 1 and 2, 3 on each). Identity puts cycle4 on alpha's PUs 0..3: 0-1
# and 2-3 share a core (1), 1-2 and 3-0 cross cores (11): J = 2*5*1 + 2*5*11 = 120.
for f in rankfile ompi5; do
  "$rankmap" map --topology "$data/two_hosts.net" --comm "$data/cycle4.edges" \
    --algorithm identity --format "$f" --output "$tmp/m.$f" >/dev/null 2>"$tmp/map.err" ||
    fail "map $f: $(cat "$tmp/map.err")"
  expect "read_$f" "J                120" eval --topology "$data/two_hosts.net" \
    --comm "$data/cycle4.edges" --mapping "$tmp/m.$f"
done

# n-to-1: 4 processes on the 2 leaves of tleaf 1 2 1 (distance 1), two per
# leaf. Edges 1-2 and 3-0 cross (J = 2 * 5, 2 hops each: 20), 0-1 and 2-3
# stay on a leaf. Hockney defaults: the only level is a cache level, as is
# self: 2e-7 + 5e-11 * 2.5 per message, two messages per process: 4.0025e-07.
# Two processes a leaf of two: no leaf over its share, imbalance 0.
printf '0\n0\n1\n1\n' >"$tmp/n1.map"
"$rankmap" eval --topology "tleaf 1 2 1" --comm "$data/cycle4.edges" --mapping "$tmp/n1.map" \
  --model hockney >"$tmp/n1.out" 2>"$tmp/n1.err" || fail "n-to-1: $(cat "$tmp/n1.err")"
cat >"$tmp/n1.want" <<'OUT'
processes        4 (n-to-1)
leaves           2
J                10
hop-bytes        20
max link volume  10 (above node 0, leaf)
imbalance        0.0000 (heaviest leaf over its share)
volume by level of the common ancestor:
  depth 0 level0     10
  depth 1 same leaf  10
predicted time   4.0025e-07 s per exchange (hockney model, every edge both ways in one phase)
OUT
diff -u "$tmp/n1.want" "$tmp/n1.out" || fail "n-to-1 report"
# Three on one leaf, one on the other: 3 / 2 - 1 = 0.5 over the share, refused
# at the default bound, reported within --imbalance 0.5.
printf '0\n0\n0\n1\n' >"$tmp/n1b.map"
if "$rankmap" eval --topology "tleaf 1 2 1" --comm "$data/cycle4.edges" \
  --mapping "$tmp/n1b.map" >/dev/null 2>"$tmp/n1b.err"; then
  fail "imbalance 0.5 accepted at the default bound"
fi
grep -q "leaf 0 carries vertex weight 3" "$tmp/n1b.err" || fail "n1b: $(cat "$tmp/n1b.err")"
expect imbalance_bound "imbalance        0.5000 (heaviest leaf over its share)" eval --topology "tleaf 1 2 1" \
  --comm "$data/cycle4.edges" --mapping "$tmp/n1b.map" --imbalance 0.5

# Network spec of two clusters of two 4-leaf tleaf nodes; one pair sending
# 1000 bytes each way. Leaves 0 and 8 are in different clusters.
printf '0\n8\n' >"$tmp/across.map"
printf '0\n4\n' >"$tmp/cluster.map"
printf '0\n1\n' >"$tmp/node.map"
net="$data/two_clusters.net"
# Network defaults between clusters: 1.5e-6 + 8e-10 * 1000 (a node's would be
# 7e-7).
expect net_default "predicted time   2.3e-06 s per exchange (hockney model, every edge both ways in one phase)" \
  eval --topology "$net" --comm "$data/pair.edges" --mapping "$tmp/across.map" --model hockney
# Calibrated internode 2e-6 + 1e-9 * 1000 = 3e-6, between clusters and
# between two nodes of one cluster; intranode 1e-7 + 1e-10 * 1000 = 2e-7.
for m in across cluster; do
  expect "net_calibrated_$m" "predicted time   3e-06 s per exchange (hockney model, every edge both ways in one phase)" \
    eval --topology "$net" --comm "$data/pair.edges" --mapping "$tmp/$m.map" --model hockney \
    --params "$data/calibrated.params"
done
expect net_calibrated_node "predicted time   2e-07 s per exchange (hockney model, every edge both ways in one phase)" \
  eval --topology "$net" --comm "$data/pair.edges" --mapping "$tmp/node.map" --model hockney \
  --params "$data/calibrated.params"
# Classes: `level cluster` prices the pair on two nodes of one cluster.
printf 'level cluster hockney alpha=1e-5 beta=0\n' >"$tmp/cluster.params"
expect net_class_cluster "predicted time   1e-05 s per exchange (hockney model, every edge both ways in one phase)" \
  eval --topology "$net" --comm "$data/pair.edges" --mapping "$tmp/cluster.map" --model hockney \
  --params "$tmp/cluster.params"

# Kinds inside merged kinds: the hwloc synthetic "pack:1 numa:1 core:2" merges
# Machine, Package and NUMANode into one level above the two cores.
for sel in Package numa node Machine socket; do
  printf 'level %s hockney alpha=1 beta=0\n' "$sel" >"$tmp/sel.params"
  expect "merged_$sel" "predicted time   1 s per exchange (hockney model, every edge both ways in one phase)" \
    eval --topology "pack:1 numa:1 core:2 pu:1" --comm "$data/pair.edges" --mapping "$tmp/node.map" \
    --model hockney --params "$tmp/sel.params"
done

# A bad parameter file fails before anything is printed.
printf 'level bogus hockney alpha=1\n' >"$tmp/bad.params"
"$rankmap" eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$tmp/m.plain" \
  --model hockney --params "$tmp/bad.params" >"$tmp/bad.out" 2>"$tmp/bad.err"
[ $? -eq 2 ] || fail "bad params: exit status"
[ -s "$tmp/bad.out" ] && fail "bad params: printed before failing: $(cat "$tmp/bad.out")"
grep -qF "bad.params:1: field 'selector': no level of kind or class 'bogus'" "$tmp/bad.err" ||
  fail "bad params: $(cat "$tmp/bad.err")"
"$rankmap" compare --topology "$t4" --comm "$data/cycle4.edges" --model hockney \
  --params "$tmp/bad.params" --quiet >"$tmp/cbad.out" 2>"$tmp/cbad.err"
[ -s "$tmp/cbad.out" ] && fail "compare, bad params: printed before failing"

# Unlike nodes: cluster a's machines have packages where cluster b's have
# NUMA nodes; each kind gets its own row. cycle4 on leaves 0, 1, 8, 12:
# 0-1 share a Package (5), 1-2 and 3-0 cross clusters (10), 2-3 two nodes of
# cluster b (5).
printf '0\n1\n8\n12\n' >"$tmp/unlike.map"
"$rankmap" eval --topology "$data/unlike_nodes.net" --comm "$data/cycle4.edges" \
  --mapping "$tmp/unlike.map" >"$tmp/unlike.out" 2>"$tmp/unlike.err" || fail "unlike: $(cat "$tmp/unlike.err")"
sed -n '/volume by level/,$p' "$tmp/unlike.out" >"$tmp/unlike.levels"
cat >"$tmp/unlike.want" <<'OUT'
volume by level of the common ancestor:
  depth 0 network    10
  depth 1 cluster    5
  depth 2 Machine+NUMANode 0
  depth 2 Machine    0
  depth 3 Package    5
  depth 3 Group+NUMANode 0
  depth 4 same leaf  0
OUT
diff -u "$tmp/unlike.want" "$tmp/unlike.levels" || fail "unlike levels"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all eval cases passed"
