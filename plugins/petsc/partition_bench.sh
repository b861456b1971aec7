#!/bin/bash
# The rankmap partition against PETSc's ptscotch partition (part p where rank p runs), side by
# side in one run of a real PETSc program: snes ex13 (3D Poisson, DMPlex hex mesh) distributes
# its mesh with -petscpartitioner_type rankmap and -petscpartitioner_rankmap_compare ptscotch,
# under mpirun on virtual nodes of this host (tests/launch/virtual_nodes.sh) forming a two-level
# machine: two switches of N/4 nodes of two cores (network spec below). Per placement of the
# ranks (packed: --map-by core; cyclic: --map-by node) and traffic model (bandwidth-bound: 400 B
# a face in one message per neighbouring pair; latency-bound: the same bytes in 1,000 messages),
# it prints J of both partitions (rankmap eval), the predicted exchange of both, and the SMPI
# replay of one exchange of each (rankmap simulate, message by message), as ratios.
#
#   ./bazelw run -c opt //plugins/petsc:partition_bench [-- RANKS FACES]   (default 16 24)
set -uo pipefail
rankmap="$(realpath "$1")"
plugin="$(realpath "$2")"
ranks="${3:-16}"
faces="${4:-24}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

examples="$(ls -d /usr/share/petsc/*/share/petsc/examples/src | head -1)"
includes="$(sed -n 's/^PETSC_CC_INCLUDES = //p' /usr/lib/petsc/lib/petsc/conf/petscvariables)"
mpicc -O2 -o "$dir/ex13" "$examples/snes/tutorials/ex13.c" $includes -lpetsc_real -lm || exit 1
source tests/launch/virtual_nodes.sh
fake_remote_shell "$dir"

nodes=$((ranks / 2))
{
  echo network
  echo "link node 40GBps:0.5us"
  echo "link cluster 25Gbps:2us"
  echo "link network 10Gbps:5us"
  for ((n = 0; n < nodes; ++n)); do
    [ $((n % (nodes / 2))) -eq 0 ] && echo "cluster s$((n / (nodes / 2)))"
    echo "node n$n core:2"
  done
} >"$dir/machine.net"
hosts="$(for ((n = 0; n < nodes; ++n)); do printf 'n%d:2,' "$n"; done)"

j_of() { "$rankmap" eval --topology "$dir/machine.net" --comm "$1.graph" --mapping "$2" |
  awk '$1 == "J" { print $2 }'; }
# Seconds of one exchange replayed in SMPI: EXCHANGE-PREFIX RANKS-FILE.
replay() { "$rankmap" simulate --topology "$dir/machine.net" --comm "$1.exchange.mat" \
  --mapping "$2" --iterations 1 | awk '/^simulated time per iteration/ { print $(NF - 1) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 1) }'; }

echo "ex13 on a ${faces}^3 hex mesh, $ranks ranks on $nodes nodes of 2 cores under 2 switches"
printf '%-8s %-16s %-14s %10s %12s %12s %10s %8s\n' placement model chosen "J ratio" \
  "rankmap (s)" "ptscotch (s)" "replay" "pred."
for placement in core node; do
  for model in bandwidth:400,1 latency:400,1000; do
    name="${model%%:*}"
    prefix="$dir/$placement-$name"
    timeout 600 mpirun --mca plm_rsh_agent "$dir/fakessh" --mca btl self,tcp \
      --mca mpi_yield_when_idle 1 --host "${hosts%,}" -np "$ranks" --map-by "$placement" \
      --bind-to core "$dir/ex13" -dm_plex_dim 3 -dm_plex_simplex 0 \
      -dm_plex_box_faces "$faces,$faces,$faces" -potential_petscspace_degree 1 -snes_max_it 1 \
      -ksp_max_it 10 -dll_append "$plugin" -petscpartitioner_type rankmap \
      -petscpartitioner_rankmap_network "$dir/machine.net" \
      -petscpartitioner_rankmap_exchange "${model#*:}" \
      -petscpartitioner_rankmap_compare ptscotch -petscpartitioner_rankmap_write "$prefix" \
      -petscpartitioner_view >"$prefix.out" 2>&1 || { echo "run failed:"; tail "$prefix.out"; exit 1; }
    chosen="$(sed -n 's/^chose \([^:]*\):.*/\1/p' "$prefix.out")"
    predicted="$(sed -n 's/.*one exchange predicted [^(]*(rankmap \([0-9.]*\)x).*/\1/p' "$prefix.out")"
    mine="$(replay "$prefix" "$prefix.ranks")"
    theirs="$(replay "$prefix.compared" "$prefix.ranks")"
    printf '%-8s %-16s %-14s %10s %12s %12s %10s %8s\n' "$placement" "$name ${model#*:}" \
      "$chosen" "$(ratio "$(j_of "$prefix" "$prefix.leaves")" \
      "$(j_of "$prefix" "$prefix.compared.leaves")")" "$mine" "$theirs" \
      "$(ratio "$mine" "$theirs")" "$predicted"
  done
done
