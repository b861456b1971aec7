#!/bin/bash
# PETSc's own tutorials (Debian's libpetsc3.18-dev-examples), compiled here against Debian's
# PETSc, partition through librankmap_petsc.so loaded with -dll_append, under the real mpirun:
# 8 ranks on four nodes of this host under two switches (tests/launch/virtual_nodes.sh; the
# network spec below describes both levels), dealt round-robin over the nodes (--map-by node,
# as cyclic launch defaults place them).
#
#   plex: snes ex13 (3D Poisson on a DMPlex hex mesh) distributes its mesh with
#         -petscpartitioner_type rankmap;
#   mat:  snes ex13 with -petscpartitioner_type matpartitioning -mat_partitioning_type rankmap
#         (DMPlex through MatPartitioningApply), and mat ex15, which calls
#         MatPartitioningApply itself on its graph.
#
# Each run asserts: every vertex on one part, the parts being those PETSc used (its own -dm_view
# cell counts per rank, or the IS it prints); the imbalance within 3%; J below that of PETSc's
# ptscotch partition (part p where rank p runs) on the same machine, both recomputed by
# `rankmap eval` from the graph and partitions the plugin wrote; one exchange of each replayed
# in SMPI (`rankmap simulate`), rankmap's not slower; the program's numerical result
# unchanged from the ptscotch run (ex13's L2 error and first residual, a converged solve).
#
#   tutorials_test.sh RANKMAP LIBRANKMAP_PETSC plex|mat
set -uo pipefail
rankmap="$(realpath "$1")"
plugin="$(realpath "$2")"
mode="$3"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $mode: $*"; failures=$((failures + 1)); }

examples="$(ls -d /usr/share/petsc/*/share/petsc/examples/src 2>/dev/null | head -1)"
conf=/usr/lib/petsc/lib/petsc/conf/petscvariables
if [ -z "$examples" ] || [ ! -f "$conf" ]; then
  echo "needs petsc-dev and libpetsc3.18-dev-examples (./bazelw installs them)"
  exit 1
fi
includes="$(sed -n 's/^PETSC_CC_INCLUDES = //p' "$conf")"
build() {  # NAME SOURCE
  mpicc -O1 -o "$dir/$1" "$examples/$2" $includes -lpetsc_real -lm || fail "cannot compile $2"
}

source tests/launch/virtual_nodes.sh
fake_remote_shell "$dir"
cat >"$dir/machine.net" <<'EOF'
network
link node 40GBps:0.5us
link cluster 25Gbps:2us
link network 10Gbps:5us
cluster s0
node n0 core:2
node n1 core:2
cluster s1
node n2 core:2
node n3 core:2
EOF
launch=(mpirun --mca plm_rsh_agent "$dir/fakessh" --mca btl self,tcp --mca mpi_yield_when_idle 1
  --host n0:2,n1:2,n2:2,n3:2 -np 8 --map-by node --bind-to core)
run() {  # NAME PROGRAM ARGS...: the program under mpirun, its output in $dir/NAME.out
  local name="$1"
  shift
  echo "$ mpirun ... $(basename "$1") ${*:2}" | sed "s|$dir|<tmp>|g"
  timeout 120 "${launch[@]}" "$@" >"$dir/$name.out" 2>&1 || fail "$name: exit $?"
  grep -v '^\[[0-9]*\] ' "$dir/$name.out" | grep -v '^ *[0-9]* KSP' | sed "s|$dir|<tmp>|g"
}

# J of a partition written by the plugin (PREFIX.graph, PREFIX[.compared].leaves).
j_of() { "$rankmap" eval --topology "$dir/machine.net" --comm "$1.graph" --mapping "$2" |
  awk '$1 == "J" { print $2 }'; }
# Seconds of one exchange replayed in SMPI: EXCHANGE-PREFIX RANKS-FILE.
replay() { "$rankmap" simulate --topology "$dir/machine.net" --comm "$1.exchange.mat" \
  --mapping "$2" --iterations 1 | awk '/^simulated time per iteration/ { print $(NF - 1) }'; }

# One exchange of each partition (PREFIX[.compared].exchange.mat, the model the plugin used)
# replayed in SMPI message by message, ranks where they ran (PREFIX.ranks): rankmap's never
# slower than ptscotch's. Equal is allowed: when one rank's neighbours set the time, a lower J
# need not shorten it.
check_replay() {  # PREFIX
  local mine theirs
  mine="$(replay "$1" "$1.ranks")"
  theirs="$(replay "$1.compared" "$1.ranks")"
  awk -v a="$mine" -v b="$theirs" 'BEGIN { printf "replayed exchange: rankmap %s s, ptscotch %s s (%.3fx)\n", a, b, (b > 0 ? a / b : 0) }'
  awk -v a="$mine" -v b="$theirs" 'BEGIN { exit !(a > 0 && a <= b) }' ||
    fail "$1: the replayed exchange '$mine' s is above ptscotch's '$theirs' s (or none was replayed)"
}

# Every vertex once, within 3%, J below ptscotch's, the replayed exchange not above: PREFIX N.
check_partition() {
  local prefix="$1" n="$2" mine theirs
  [ "$(wc -l <"$prefix.part")" -eq "$n" ] || fail "$prefix: $(wc -l <"$prefix.part") parts for $n vertices"
  awk -v n="$n" '$1 < 0 || $1 > 7 { bad = 1 } { c[$1]++ } END {
      for (p = 0; p < 8; ++p) if (c[p] > 1.03 * n / 8) bad = 1; exit bad }' "$prefix.part" ||
    fail "$prefix: a part out of range or above 3% of its share"
  mine="$(j_of "$prefix" "$prefix.leaves")"
  theirs="$(j_of "$prefix" "$prefix.compared.leaves")"
  echo "J: rankmap $mine, ptscotch $theirs"
  awk -v a="$mine" -v b="$theirs" 'BEGIN { exit !(a > 0 && a < b) }' ||
    fail "$prefix: J $mine is not below ptscotch's $theirs"
  check_replay "$prefix"
}

# The cells per rank PETSc reports after distribution equal the plugin's part sizes.
check_cells() {  # NAME PREFIX
  local petsc ours
  petsc="$(sed -n 's/^ *Number of 3-cells per rank: //p' "$dir/$1.out" | tail -1)"
  ours="$(awk '{ c[$1]++ } END { for (p = 0; p < 8; ++p) printf "%s%d", (p ? " " : ""), c[p] }' "$2.part")"
  [ -n "$petsc" ] && [ "$petsc" = "$ours" ] ||
    fail "$1: PETSc's cells per rank '$petsc', the plugin's parts '$ours'"
}

# The same numerical result as the ptscotch run: L2 error, first residual, converged.
check_result() {  # NAME
  local want got
  for pattern in '^N: ' '^ *0 SNES Function norm'; do
    want="$(grep "$pattern" "$dir/ex13_ptscotch.out")"
    got="$(grep "$pattern" "$dir/$1.out")"
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "$1: '$got', ptscotch gave '$want'"
  done
  awk '/ 1 SNES Function norm/ { ok = ($5 < 1e-8) } END { exit !ok }' "$dir/$1.out" ||
    fail "$1: the solve did not converge"
}

ex13=(-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 12,12,12 -potential_petscspace_degree 1
  -error_view -snes_monitor -ksp_type cg -pc_type jacobi -ksp_rtol 1e-10 -dm_view)
build ex13 snes/tutorials/ex13.c
run ex13_ptscotch "$dir/ex13" "${ex13[@]}" -petscpartitioner_type ptscotch

case "$mode" in
  plex)
    run ex13_rankmap "$dir/ex13" "${ex13[@]}" -dll_append "$plugin" \
      -petscpartitioner_type rankmap -petscpartitioner_view \
      -petscpartitioner_rankmap_network "$dir/machine.net" \
      -petscpartitioner_rankmap_compare ptscotch -petscpartitioner_rankmap_write "$dir/plex"
    check_partition "$dir/plex" 1728
    check_cells ex13_rankmap "$dir/plex"
    check_result ex13_rankmap
    for line in "^rankmap: 1728 vertices, 4752 edges onto 8 parts" "host n0" "^J [0-9.e+]*, imbalance" \
      "^exchange model: 8 B per unit" "^chose " "^ptscotch (part p where rank p runs): J"; do
      grep -q "$line" "$dir/ex13_rankmap.out" || fail "the view has no line '$line'"
    done
    ;;
  mat)
    run ex13_matpartitioning "$dir/ex13" "${ex13[@]}" -dll_append "$plugin" \
      -petscpartitioner_type matpartitioning -mat_partitioning_type rankmap \
      -mat_partitioning_rankmap_network "$dir/machine.net" \
      -mat_partitioning_rankmap_compare ptscotch -mat_partitioning_rankmap_write "$dir/mat"
    check_partition "$dir/mat" 1728
    check_cells ex13_matpartitioning "$dir/mat"
    check_result ex13_matpartitioning
    # ex15: a line graph of 4000 vertices, its partition printed by ISView.
    build ex15 mat/tutorials/ex15.c
    run ex15 "$dir/ex15" -N 4000 -dll_append "$plugin" -mat_partitioning_type rankmap \
      -mat_partitioning_rankmap_network "$dir/machine.net" -mat_partitioning_view \
      -mat_partitioning_rankmap_compare ptscotch -mat_partitioning_rankmap_write "$dir/line"
    check_partition "$dir/line" 4000
    # The IS PETSc returned ("[rank] local part" lines, rows in rank order) is the plugin's.
    # Its own ISView comes last (the views inside MatPartitioningApply print theirs first).
    awk '/^\[[0-9]+\] [0-9]+ [0-9]+$/ { print $3 }' "$dir/ex15.out" | tail -n 4000 |
      cmp -s - "$dir/line.part" ||
      fail "ex15: the IS PETSc printed differs from the plugin's partition"
    # With ex15's vertex weights (rank + 1) and edge weights (2, 3, 5): both reach the graph,
    # and rankmap eval checks the balance by weight.
    run ex15_weights "$dir/ex15" -N 4000 -test_vertex_weights -test_use_edge_weights \
      -dll_append "$plugin" -mat_partitioning_type rankmap \
      -mat_partitioning_rankmap_network "$dir/machine.net" \
      -mat_partitioning_rankmap_compare ptscotch -mat_partitioning_rankmap_write "$dir/weighted"
    [ "$(head -1 "$dir/weighted.graph")" = "4000 3999 011" ] ||
      fail "ex15 weights: the graph's header is '$(head -1 "$dir/weighted.graph")'"
    mine="$(j_of "$dir/weighted" "$dir/weighted.leaves")"
    theirs="$(j_of "$dir/weighted" "$dir/weighted.compared.leaves")"
    echo "J with weights: rankmap $mine, ptscotch $theirs"
    awk -v a="$mine" -v b="$theirs" 'BEGIN { exit !(a > 0 && a < b) }' ||
      fail "ex15 weights: J '$mine' is not below ptscotch's '$theirs' (or a partition was refused)"
    check_replay "$dir/weighted"
    ;;
  *)
    echo "unknown mode $mode"
    exit 1
    ;;
esac

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
