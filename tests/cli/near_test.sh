#!/bin/bash
# `rankmap map --near gpu|nic` on real machines' hwloc exports. Expectations read from the XML:
#  - nvidiaDGX2.xml keeps 2 PUs per package, leaves 0,1 = PUs 0,1 (Package 0, where nvml0..7
#    sit) and leaves 2,3 = PUs 24,25 (Package 1: nvml8..15);
#  - power8gpudistances.xml: cuda0, cuda1 below Package 0 (PU leaves 0-7), cuda2, cuda3 below
#    Package 1 (PU leaves 8-15);
#  - 24em64t-2n6c2t-pci.xml: every NIC below Package 0, whose 12 PUs are leaves 0-11.
set -uo pipefail
rankmap="$1"
xml="$2"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
for ((i = 0; i < 16; i++)); do echo "$i $(((i + 1) % 16)) 10"; done >"$dir/ring16.edges"
# The heavy edge 3-0 pulls processes 0 and 3 together unless their GPUs keep them apart.
printf '0 1 100\n1 2 10\n2 3 100\n3 0 1000\n' >"$dir/ring4.edges"

# One rank per GPU of the DGX-2, four slots per PU: the exact output.
out="$("$rankmap" map --topology "$xml/nvidiaDGX2.xml" --comm "$dir/ring16.edges" --near gpu \
  --slots-per-leaf 4 --quiet --output "$dir/dgx.txt")" || fail "dgx: $out"
echo "$out"
want="$dir/dgx.txt: 16 processes on 4 leaves, J = 240 (identity 240, ratio 1.000)"
for ((i = 0; i < 16; i++)); do
  if ((i < 8)); then
    want+=$'\n'"near gpu: process $i: nvml$i (Package:0, PUs 0-1)"
  else
    want+=$'\n'"near gpu: process $i: nvml$i (Package:1, PUs 24-25)"
  fi
done
[ "$out" = "$want" ] || fail "dgx output differs from: $want"
i=0
while read -r leaf; do
  if ((i < 8)) && ((leaf > 1)); then fail "dgx: process $i on leaf $leaf, not Package 0's"; fi
  if ((i >= 8)) && ((leaf < 2)); then fail "dgx: process $i on leaf $leaf, not Package 1's"; fi
  i=$((i + 1))
done <"$dir/dgx.txt"

# POWER8: the heavy pair 0-3 is split across the packages by its GPUs; JSON names the devices.
json="$("$rankmap" map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring4.edges" \
  --near gpu --format json --quiet 2>/dev/null)" || fail "power8: $json"
echo "$json"
grep -qF '"device": ["cuda0", "cuda1", "cuda2", "cuda3"]' <<<"$json" || fail "power8: devices"
leaves="$(sed 's/.*"mapping": \[\([^]]*\)\].*/\1/' <<<"$json" | tr -d ,)"
read -r l0 l1 l2 l3 <<<"$leaves"
((l0 < 8 && l1 < 8 && l2 >= 8 && l3 >= 8)) || fail "power8: leaves $leaves"
# Unconstrained, the same graph keeps 0 and 3 on one package.
free="$("$rankmap" map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring4.edges" \
  --format json --quiet)"
read -r f0 f1 f2 f3 <<<"$(sed 's/.*"mapping": \[\([^]]*\)\].*/\1/' <<<"$free" | tr -d ,)"
(((f0 < 8) == (f3 < 8))) || fail "power8 without --near: 0 and 3 apart ($free)"

# With threads: each rank's two PUs (one POWER8 core's first two threads) on its GPU's package.
out="$("$rankmap" map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring4.edges" \
  --near gpu --threads-per-process 2 --quiet --output "$dir/t.txt")" || fail "threads: $out"
echo "$out"
grep -qE "rank 0: OMP_NUM_THREADS=2 OMP_PLACES=\{(0|8|16|24)\}," <<<"$out" || fail "threads: rank 0"
grep -qE "rank 3: OMP_NUM_THREADS=2 OMP_PLACES=\{(80|88|96|104)\}," <<<"$out" || fail "threads: rank 3"

# NICs: processes 0 and 3 named for the HCA by its OpenFabrics name.
printf '# HCA of the ConnectX VPI\nmlx4_0 0 3\n' >"$dir/nic.txt"
out="$("$rankmap" map --topology "$xml/24em64t-2n6c2t-pci.xml" --comm "$dir/ring4.edges" \
  --leaf core --near nic --near-processes "$dir/nic.txt" --quiet --output "$dir/n.txt")" ||
  fail "nic: $out"
echo "$out"
grep -qF "near nic: process 3: eth2 (Package:0, PUs 0,2,4,6,8,10,12,14,16,18,20,22)" <<<"$out" ||
  fail "nic: device line"
[ "$(sed -n 1p "$dir/n.txt")" -lt 6 ] && [ "$(sed -n 4p "$dir/n.txt")" -lt 6 ] ||
  fail "nic: processes 0, 3 not on Package 0's cores: $(paste -sd' ' "$dir/n.txt")"

# Bad input: one line, exit 2.
error no_gpu "--near gpu: $xml/16em64t-4s2c2t.xml has no GPU (hwloc OS devices of type GPU/CoProcessor)" \
  map --topology "$xml/16em64t-4s2c2t.xml" --comm "$dir/ring4.edges" --near gpu
error no_nic "--near nic: $xml/power8gpudistances.xml has no NIC (hwloc OS devices of type Network/OpenFabrics)" \
  map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring4.edges" --near nic
error too_few "--near gpu: 16 processes need one GPU each but $xml/power8gpudistances.xml has 4" \
  map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring16.edges" --near gpu
error small "--near gpu: the leaves local to nvml0 ... nvml3 (Package:0, PUs 0-1) have 2 slots for their 4 processes 0..3" \
  map --topology "$xml/nvidiaDGX2.xml" --comm "$dir/ring4.edges" --near gpu
error tleaf "--near gpu: 'tleaf 2 2 10 2 1' is not an hwloc machine (an XML export or 'this')" \
  map --topology "tleaf 2 2 10 2 1" --comm "$dir/ring4.edges" --near gpu
error synthetic "--near nic: 'pack:2 core:2' is not an hwloc machine" \
  map --topology "pack:2 core:2" --comm "$dir/ring4.edges" --near nic
error unknown_device "nic.txt:2: no device named 'mlx4_0' (devices: cuda0 ... cuda3)" \
  map --topology "$xml/power8gpudistances.xml" --comm "$dir/ring4.edges" --near gpu \
  --near-processes "$dir/nic.txt"
error class "--near: expected gpu or nic, found 'fpga'" \
  map --topology "$xml/nvidiaDGX2.xml" --comm "$dir/ring4.edges" --near fpga
error alone "--near-processes: goes with --near gpu|nic" \
  map --topology "$xml/nvidiaDGX2.xml" --comm "$dir/ring4.edges" --near-processes "$dir/nic.txt"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
