#!/usr/bin/env bash
# The real mesh of the partitioner benchmark and the traffic its solver sends:
# OpenFOAM's channel395 LES tutorial (Debian's openfoam-examples) refined 2x
# in every direction (480,000 cells, cyclic in x and z, its initial fields
# mapped from the tutorial's), decomposed onto RANKS ranks by the
# hierarchical method, run for STEPS time steps of pimpleFoam under the real
# mpirun with rankmap's profiler preloaded. Writes into DIR:
#   channel.grf         the cell graph (rankmap frontend openfoam)
#   pimple.mat, pimple.msgs.mat   bytes and messages between ranks, whole run
#   cellDecomposition   the partition the profiled run used
# and prints the bench command that fits the latency-bound model from them.
# About 2 minutes with 16 ranks on 2 cores.
#
#   bench/openfoam_profile.sh RANKMAP LIBRANKMAP_PROFILE DIR [RANKS] [STEPS]
#   ./bazelw build -c opt //cli:rankmap //mpi_bindings:librankmap_profile.so
#   bench/openfoam_profile.sh "$(./bazelw info -c opt bazel-bin)"/cli/rankmap \
#     "$(./bazelw info -c opt bazel-bin)"/mpi_bindings/librankmap_profile.so /tmp/chan
set -euo pipefail
rankmap=$(realpath "$1")
profiler=$(realpath "$2")
dir=$(realpath -m "$3")
ranks=${4:-16}
steps=${5:-3}
tutorial=/usr/share/doc/openfoam-examples/examples/incompressible/pimpleFoam/LES/channel395

set +u
# shellcheck disable=SC1091
source /usr/share/openfoam/etc/bashrc >/dev/null 2>&1 || true
set -u
command -v pimpleFoam >/dev/null || { echo "OpenFOAM is not installed" >&2; exit 2; }

mkdir -p "$dir"
rm -rf "$dir/src" "$dir/case"
cp -r "$tutorial" "$dir/src" && cp -r "$tutorial" "$dir/case"
chmod -R u+w "$dir/src" "$dir/case"
(cd "$dir/src" && blockMesh >log.blockMesh 2>&1)
cd "$dir/case"
blockMesh >log.blockMesh 2>&1
refineMesh -overwrite >log.refineMesh 2>&1
rm -rf 0 && cp -r 0.orig 0
mapFields ../src -consistent -sourceTime 0 >log.mapFields 2>&1
sed -i "s/^endTime .*/endTime         $(awk -v s="$steps" 'BEGIN {print 0.2 * s}');/;
        s/^writeInterval .*/writeInterval   1000000;/" system/controlDict
# hierarchical: x and z split, the wall-normal y direction kept whole.
nx=$(awk -v r="$ranks" 'BEGIN {n = int(sqrt(r)); while (r % n) n--; print r / n}')
cat >system/decomposeParDict <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object decomposeParDict; }
numberOfSubdomains $ranks;
method hierarchical;
hierarchicalCoeffs { n ($nx 1 $((ranks / nx))); delta 0.001; order xyz; }
DICT
decomposePar -cellDist -force >log.decomposePar 2>&1
"$rankmap" frontend openfoam --case . --output "$dir/channel.grf"
cp constant/cellDecomposition "$dir/cellDecomposition"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
start=$(date +%s)
mpirun "${root[@]}" --oversubscribe --mca mpi_yield_when_idle 1 -np "$ranks" \
  -x LD_PRELOAD="$profiler" -x RANKMAP_PROFILE_OUT="$dir/pimple" \
  pimpleFoam -parallel >log.pimpleFoam 2>&1
echo "pimpleFoam: $steps steps on $ranks ranks in $(($(date +%s) - start)) s"
echo "bench: ./bazelw run -c opt //bench:partition -- --meshes=graph:$dir/channel.grf" \
  "--profile=$dir/pimple --profile_partition=$dir/cellDecomposition --exchanges=$steps"
