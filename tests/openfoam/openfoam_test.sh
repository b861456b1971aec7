#!/usr/bin/env bash
# rankmap with the real OpenFOAM (Debian's openfoam and openfoam-examples):
# tutorial meshes made by blockMesh are read by `rankmap frontend openfoam`,
# partitioned by `rankmap map --format openfoam`, and decomposed by
# decomposePar with method manual. Checks: every processor directory holds as
# many cells as rankmap's part; J is below OpenFOAM's hierarchical and simple
# decompositions of the same mesh on the same machine; the decomposed case
# (processor and processorCyclic patches) reads back as the same cell graph;
# binary and gzip-compressed meshes give the same graph as ASCII ones.
#
#   openfoam_test.sh RANKMAP
set -euo pipefail

rankmap=$(realpath "$1")
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/openfoam.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
examples=/usr/share/doc/openfoam-examples/examples
# 2 switches x 2 nodes x 4 cores.
machine="tleaf 3 2 100 2 10 4 1"

fail() { echo "FAIL: $*" >&2; exit 1; }

bashrc=""
for f in /usr/share/openfoam/etc/bashrc /usr/lib/openfoam/openfoam*/etc/bashrc; do
  [ -f "$f" ] && bashrc=$f && break
done
[ -n "$bashrc" ] && [ -d "$examples" ] ||
  fail "OpenFOAM is not installed (Debian packages openfoam and openfoam-examples; ./bazelw installs them for this test)"
# OpenFOAM's environment reads unset variables.
set +u
# shellcheck disable=SC1090
source "$bashrc" >/dev/null 2>&1 || true
set -u
command -v blockMesh >/dev/null || fail "blockMesh is not on PATH after sourcing $bashrc"

# foam CASE TOOL [ARGS]: an OpenFOAM tool run in CASE, its output in CASE/TOOL.log.
foam() {
  local dir=$1 tool=$2
  shift 2
  (cd "$dir" && "$tool" "$@" >"$tool.log" 2>&1) || {
    tail -20 "$dir/$tool.log" >&2
    fail "$tool $* in $dir"
  }
}

# decompose_dict CASE METHOD N: system/decomposeParDict for N subdomains.
decompose_dict() {
  cat >"$1/system/decomposeParDict" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object decomposeParDict; }
numberOfSubdomains $3;
method          $2;
simpleCoeffs       { n (4 4 1); delta 0.001; }
hierarchicalCoeffs { n (4 4 1); delta 0.001; order xyz; }
manualCoeffs       { dataFile "rankmap.decomp"; }
DICT
}

# j MAPPING GRAPH: J of a decomposition on the machine (any imbalance).
j() {
  "$rankmap" eval --topology "$machine" --comm "$2" --mapping "$1" --imbalance 10 |
    awk '$1 == "J" {print $2}'
}

# check_case NAME CASE: the whole round trip on a case whose mesh exists.
check_case() {
  local name=$1 dir=$2
  "$rankmap" frontend openfoam --case "$dir" --output "$tmp/$name.grf" >"$tmp/$name.frontend"
  "$rankmap" map --topology "$machine" --comm "$tmp/$name.grf" --format openfoam \
    --output "$dir/constant/rankmap.decomp" --quiet >"$tmp/$name.map"
  grep -q 'numberOfSubdomains 16;' "$tmp/$name.map" || fail "$name: no decomposeParDict lines"
  grep -q 'dataFile "rankmap.decomp"' "$tmp/$name.map" || fail "$name: no dataFile line"

  decompose_dict "$dir" manual 16
  foam "$dir" decomposePar -force
  # rankmap's part sizes, processor by processor, against the processor meshes.
  local want got p
  want=$(awk 'start && /^[0-9]+$/ {n[$1]++} /^\($/ {start = 1} /^\)$/ {start = 0}
              END {for (p = 0; p < 16; p++) printf "%d ", n[p]}' "$dir/constant/rankmap.decomp")
  got=""
  for p in $(seq 0 15); do
    got+="$(grep -ao 'nCells:[0-9]*' "$dir/processor$p/constant/polyMesh/owner" | cut -d: -f2) "
  done
  [ "$want" = "$got" ] || fail "$name: processor cells '$got', rankmap's parts '$want'"
  echo "$name: processor cell counts equal rankmap's parts: $got"

  # The decomposed case, read through its processor patches, is the same graph.
  mv "$dir/constant/polyMesh" "$dir/constant/polyMesh.serial"
  "$rankmap" frontend openfoam --case "$dir" --output "$tmp/$name.decomposed.grf" \
    >"$tmp/$name.decomposed"
  mv "$dir/constant/polyMesh.serial" "$dir/constant/polyMesh"
  cmp -s "$tmp/$name.grf" "$tmp/$name.decomposed.grf" ||
    fail "$name: the decomposed case reads as another graph"
  grep -q 'processor face pairs joining 16 pieces, cells numbered by cellProcAddressing' \
    "$tmp/$name.decomposed" || fail "$name: $(cat "$tmp/$name.decomposed")"
  echo "$name: decomposed case reads back as the same graph ($(grep -o '[0-9]* processor face pairs' "$tmp/$name.decomposed"))"

  local j_rankmap j_method
  j_rankmap=$(j "$dir/constant/rankmap.decomp" "$tmp/$name.grf")
  for method in hierarchical simple; do
    decompose_dict "$dir" "$method" 16
    foam "$dir" decomposePar -force -cellDist
    j_method=$(j "$dir/constant/cellDecomposition" "$tmp/$name.grf")
    echo "$name: J rankmap $j_rankmap, $method $j_method"
    awk -v a="$j_rankmap" -v b="$j_method" 'BEGIN {exit !(a < b)}' ||
      fail "$name: rankmap's J $j_rankmap is not below $method's $j_method"
  done
}

# 1. pitzDaily (2D, 12,225 cells), ASCII.
cp -r "$examples/incompressible/simpleFoam/pitzDaily" "$tmp/pitz"
chmod -R u+w "$tmp/pitz"
foam "$tmp/pitz" blockMesh
check_case pitz "$tmp/pitz"

# Debian's scotch method is a stub that refuses to run.
decompose_dict "$tmp/pitz" scotch 16
if (cd "$tmp/pitz" && decomposePar -force >scotch.log 2>&1); then
  fail "decomposePar with method scotch ran: Debian's build was expected to ship a dummy"
fi
grep -q 'dummy scotchDecomp stub' "$tmp/pitz/scotch.log" ||
  fail "scotch method: $(grep -m1 -i error "$tmp/pitz/scotch.log")"
echo "pitz: Debian's scotch method is the dummy stub (no Scotch decomposition to compare)"

# 2. channel395 made small (8x10x6 cells), cyclic in x and z: 140 cyclic face
# pairs, 1252 internal faces, one edge each (the mesh is thick enough that no
# two cells share two faces).
cp -r "$examples/incompressible/pimpleFoam/LES/channel395" "$tmp/channel"
chmod -R u+w "$tmp/channel"
sed -i 's/(40 25 30)/(8 5 6)/' "$tmp/channel/system/blockMeshDict"
rm -rf "$tmp/channel/0" && cp -r "$tmp/channel/0.orig" "$tmp/channel/0"
foam "$tmp/channel" blockMesh
check_case channel "$tmp/channel"
grep -q '^openfoam .*: 480 cells, 1392 edges (1252 internal faces, 140 cyclic face pairs)' \
  "$tmp/channel.frontend" || fail "channel: $(cat "$tmp/channel.frontend")"

# 3. The same meshes written binary, and ASCII gzip-compressed, read as the
# same graphs; binary files gzipped by hand too (OpenFOAM reads owner.gz
# whatever its format).
for variant in binary compressed; do
  for name in pitz channel; do
    d="$tmp/$name.$variant"
    cp -r "$tmp/$name" "$d"
    rm -rf "$d"/processor* "$d/constant/polyMesh"
    if [ "$variant" = binary ]; then
      sed -i 's/^writeFormat .*/writeFormat     binary;/' "$d/system/controlDict"
    else
      sed -i 's/^writeCompression .*/writeCompression on;/' "$d/system/controlDict"
    fi
    foam "$d" blockMesh
    if [ "$variant" = binary ]; then
      grep -aq 'format      binary;' "$d/constant/polyMesh/owner" || fail "$d: owner is not binary"
    else
      [ -f "$d/constant/polyMesh/owner.gz" ] || fail "$d: owner is not compressed"
    fi
    "$rankmap" frontend openfoam --case "$d" --output "$tmp/$name.$variant.grf" >/dev/null
    cmp -s "$tmp/$name.grf" "$tmp/$name.$variant.grf" || fail "$name $variant: another graph"
    echo "$name: $variant mesh reads as the same graph"
  done
done
gzip "$tmp/channel.binary/constant/polyMesh/owner" "$tmp/channel.binary/constant/polyMesh/neighbour"
"$rankmap" frontend openfoam --case "$tmp/channel.binary" --output "$tmp/channel.bingz.grf" >/dev/null
cmp -s "$tmp/channel.grf" "$tmp/channel.bingz.grf" || fail "channel binary gzip: another graph"
echo "channel: gzip-compressed binary mesh reads as the same graph"

# 4. Errors are one line naming the file, exit status 2.
printf 'FoamFile { format ascii; class labelList; }\n3\n(\n0\n1\n' \
  >"$tmp/channel.binary/constant/polyMesh/owner"
rm "$tmp/channel.binary/constant/polyMesh/owner.gz"
set +e
msg=$("$rankmap" frontend openfoam --case "$tmp/channel.binary" 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "damaged owner: exit status $rc"
echo "$msg" | grep -q 'constant/polyMesh/owner:3: the list declares 3 labels but only' ||
  fail "damaged owner: $msg"
echo "damaged owner: $msg"
echo "PASS"
