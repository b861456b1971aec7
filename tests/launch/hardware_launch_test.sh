#!/bin/bash
# The job's own hardware and its measured links, under the real mpirun on two virtual nodes of
# this host (a remote shell that runs the command here under the node's name, as
# advise_launch_test.sh does). The nodes are of two kinds: each reports its own machine to hwloc
# (HWLOC_XMLFILE, HWLOC_THISSYSTEM): n0 two cores, n1 four cores in one package (two of them
# exist on no real CPU, so the ranks run unbound).
#
# The job (sim/replay_mpi): ranks 1, 2 and 3 exchange 10 MB each pair, rank 0 1 kB with rank 1;
# launched two ranks a node. On two nodes of two cores every placement splits the triangle
# 1-2-3 over the network; on the job's own hardware n1 takes all four ranks.
#   1. the profile keeps one hwloc export per host, of the node's own kind;
#   2. advise, from the job's own hardware, sees 2 kinds of node and replaces the launch;
#   3. advise with the wrong guess (every host as this machine) keeps it;
#   4. rankmap calibrate under the same mpirun line writes a network spec naming both hosts
#      with their own hardware, which loads, and advise --calibrate prices the job on it.
#
#   hardware_launch_test.sh RANKMAP REPLAY_MPI
set -uo pipefail
rankmap="$1"
program="$(realpath "$2")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

lstopo-no-graphics --of xml -i "pack:1 core:2 pu:1" >"$dir/kind-n0.xml" 2>/dev/null
lstopo-no-graphics --of xml -i "pack:1 core:4 pu:1" >"$dir/kind-n1.xml" 2>/dev/null
cat >"$dir/fakessh" <<EOS
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1
shift
mkdir -p "$dir/node-tmp/\$host"
SLURMD_NODENAME=\$host HWLOC_XMLFILE="$dir/kind-\$host.xml" HWLOC_THISSYSTEM=1 \
  TMPDIR="$dir/node-tmp/\$host" exec sh -c "\$*"
EOS
chmod +x "$dir/fakessh"
printf '0 1 1000\n1 2 10000000\n1 3 10000000\n2 3 10000000\n' >"$dir/g.edges"
line=(mpirun --mca plm_rsh_agent "$dir/fakessh" --mca btl self,tcp --mca mpi_yield_when_idle 1
  --host n0:2,n1:2 -np 4 --bind-to none)

run() {  # NAME ARGS...: rankmap ARGS, its output in NAME.log
  local name="$1"
  shift
  echo "$ rankmap $*"
  timeout 300 "$rankmap" "$@" >"$dir/$name.log" 2>&1 </dev/null || fail "$name: exit $?"
  cat "$dir/$name.log"
}

run own advise --output "$dir/own" -- "${line[@]}" "$program" "$dir/g.edges" --iterations=3
# 1. One export per host, each of its node's kind (PUs counted by hwloc itself).
for h in n0 n1; do
  want="$(hwloc-calc -i "$dir/kind-$h.xml" --number-of pu machine:0)"
  got="$(hwloc-calc -i "$dir/own/profile.hwloc/$h.xml" --number-of pu machine:0 2>/dev/null)"
  [ "$got" = "$want" ] || fail "profile.hwloc/$h.xml: $got PUs, the node has $want"
done
grep -q "^hardware=profile.hwloc$" "$dir/own/profile.profile" || fail "no hardware= in the side file"
# 2. The job's own hardware: two kinds, and the launch replaced.
grep -q "each as its own hardware (.*2 kinds of node; n0: 2 PUs, 2 cores, 1 package; n1: 4 PUs, 4 cores, 1 package)" \
  "$dir/own.log" || fail "own: the hosts' kinds are not said"
grep -q "^proposed placement: n1: 0 (cpu 0), 1 (cpu 1), 2 (cpu 2), 3 (cpu 3)$" "$dir/own.log" ||
  fail "own: not every rank on n1"
grep -q "^advice: a predicted gain of" "$dir/own.log" || fail "own: the launch is not replaced"
[ -s "$dir/own/job.rankfile" ] || fail "own: no rankfile"
# 3. A wrong guess of the hardware keeps the launch.
run guess advise --from-profile "$dir/own/profile.mat" --node this --launcher openmpi \
  --output "$dir/guess"
grep -q "each as this, under one switch" "$dir/guess.log" || fail "guess: not this machine"
grep -q "^advice: keep your launch" "$dir/guess.log" || fail "guess: the launch is not kept"
# 4. Links measured under the same line.
run links calibrate --quick --output "$dir/links.net" -- "${line[@]}"
for h in n0 n1; do
  grep -q "^node $h links.net.hwloc/$h.xml$" "$dir/links.net" || fail "links.net: no node $h"
done
grep -q "^link node .*GBps:.*us$" "$dir/links.net" || fail "links.net: no loopback"
grep -q "^link cluster .*GBps:.*us$" "$dir/links.net" || fail "links.net: no host link"
"$rankmap" topology --topology "$dir/links.net" >"$dir/links.tree" || fail "links.net does not load"
[ "$(grep -c 'host n' "$dir/links.tree")" -ge 1 ] || fail "links.net: no host in the tree"
run calibrated advise --calibrate --output "$dir/calibrated" -- "${line[@]}" "$program" \
  "$dir/g.edges" --iterations=3
grep -q "^machine: network spec $dir/calibrated/links.net$" "$dir/calibrated.log" ||
  fail "advise --calibrate: not priced on the links measured"
grep -q "^  replayed (SMPI)" "$dir/calibrated.log" || fail "advise --calibrate: no replay"
grep -q "^advice: " "$dir/calibrated.log" || fail "advise --calibrate: no advice"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
