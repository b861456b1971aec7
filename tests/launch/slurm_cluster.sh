# Sourced by the Slurm tests: a one-host Slurm (munged, slurmctld, slurmd) on this machine,
# started in a private directory and stopped again, also when the test fails.
#
#   slurm_start "$TEST_TMPDIR/slurm"    # exports SLURM_CONF; the daemons run
#   ... srun / salloc / scontrol ...
#   (slurm_stop runs from the EXIT trap slurm_start installs)
#
# Sockets need short paths (Unix sockets take 108 bytes) and munge's a directory path all may
# traverse (TEST_TMPDIR lies under a private home): sockets, slurmd's spool (step sockets) and
# pid files go to a fresh directory in /tmp, removed by slurm_stop; state, logs and
# configuration stay in the private directory.

slurm_free_port() {  # a TCP port nothing listens on, from $1 up
  local p="$1"
  while (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

slurm_stop() {
  local d="$SLURM_TEST_DIR" p pid
  [ -n "$d" ] || return 0
  for p in slurmd slurmctld munged; do
    pid="$(cat "$SLURM_TEST_RUN/$p.pid" 2>/dev/null)" || continue
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$SLURM_TEST_RUN"
  SLURM_TEST_DIR=""
}

slurm_start() {
  local d="$1" h
  h="$(hostname)"
  SLURM_TEST_DIR="$d"
  trap slurm_stop EXIT
  mkdir -p "$d"/{munge,tmp} "$d"/slurm/{state,log}
  chmod 700 "$d/munge"
  SLURM_TEST_RUN="$(mktemp -d /tmp/rankmap-slurm.XXXXXX)" || return 1
  chmod 755 "$SLURM_TEST_RUN"
  local run="$SLURM_TEST_RUN"
  mkdir -p "$run/spool"
  mungekey -c -k "$d/munge/munge.key" >/dev/null 2>&1 || return 1
  munged -S "$run/munge.sock" --key-file="$d/munge/munge.key" \
    --log-file="$d/munge/munged.log" --pid-file="$run/munged.pid" \
    --seed-file="$d/munge/munged.seed" || return 1
  local base=$((20000 + ($$ % 20000)))
  local p1 p2
  p1="$(slurm_free_port "$base")"
  p2="$(slurm_free_port $((p1 + 1)))"
  local cpus sockets cores threads
  read -r cpus sockets cores threads < <(slurmd -C | sed -n \
    's/.*CPUs=\([0-9]*\).*SocketsPerBoard=\([0-9]*\) CoresPerSocket=\([0-9]*\) ThreadsPerCore=\([0-9]*\).*/\1 \2 \3 \4/p')
  cat >"$d/slurm/slurm.conf" <<CONF
ClusterName=rankmap-test
SlurmctldHost=$h
SlurmUser=root
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$run/munge.sock
StateSaveLocation=$d/slurm/state
SlurmdSpoolDir=$run/spool
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$d/slurm/log/slurmctld.log
SlurmdLogFile=$d/slurm/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
TopologyPlugin=topology/tree
MailProg=/bin/true
TmpFS=$d/tmp
ReturnToService=2
NodeName=$h CPUs=$cpus Sockets=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  printf 'SwitchName=s0 Nodes=%s\nSwitchName=top Switches=s0\n' "$h" >"$d/slurm/topology.conf"
  export SLURM_CONF="$d/slurm/slurm.conf"
  slurmctld -c || return 1
  slurmd || return 1
  local state=""
  for _ in $(seq 100); do
    state="$(sinfo -h -o %T 2>/dev/null)"
    [ "$state" = idle ] && return 0
    sleep 0.2
  done
  echo "slurm did not come up (node state '$state')" >&2
  tail -5 "$d/slurm/log/slurmctld.log" "$d/slurm/log/slurmd.log" >&2
  return 1
}
