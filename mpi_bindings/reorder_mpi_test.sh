#!/bin/bash
# Runs reorder_mpi_test_main under mpirun (or mpiexec.hydra with MPI_FLAVOR=mpich) with several
# job sizes.
set -euo pipefail
bin="$1"
source mpi_bindings/mpi_run.sh
# 2 nodes x 2 sockets x 2 cores with tleaf costs: same socket 1, same node 11, across 111.
topo="tleaf 3 2 100 2 10 2 1"
for np in 8 7 2 1; do
  for alg in round-robin random tm; do
    mpi_run "$np" RANKMAP_TOPOLOGY="$topo" -- "$bin" permutation "$alg" 2,2,2 100,10,1
  done
done
for np in 8 7 2 1; do
  mpi_run "$np" RANKMAP_TOPOLOGY="$topo" -- "$bin" errors
done
# Process speeds: a network spec whose second node is 4x faster (`speed` directive).
spec="${TEST_TMPDIR:-/tmp}/two_speeds.net"
printf 'network\ncluster c\nspeed 1\n1 x core:2\nspeed 4\n1 x core:2\n' >"$spec"
mpi_run 4 RANKMAP_TOPOLOGY="$spec" -- "$bin" speeds
# RANKMAP_TOPOLOGY pointing at XML that crashes hwloc 2.9 (a PU without its complete_cpuset):
# an agreed error on every rank, no SIGSEGV.
bad="${TEST_TMPDIR:-/tmp}/no-complete-cpuset.xml"
cat >"$bad" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x3" complete_cpuset="0x3" nodeset="0x1" complete_nodeset="0x1">
    <object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1"/>
    <object type="PU" os_index="1" cpuset="0x2" nodeset="0x1" complete_nodeset="0x1"/>
  </object>
</topology>
XML
for np in 4 1; do
  mpi_run "$np" RANKMAP_TOPOLOGY="$bad" -- "$bin" bad-topology \
    "$bad:5: object PU has a cpuset but no complete_cpuset"
done
# No override: hwloc tree of this machine, engine defaults, PU re-binding.
unset RANKMAP_TOPOLOGY
for np in 4 1; do
  mpi_run "$np" -- "$bin" hwloc
done
# The same with memory following the CPUs (one process per PU).
mpi_run 2 -- "$bin" hwloc-memory
echo PASS
