# Sourced by the Slurm tests: a one-host Slurm (munged, slurmctld, slurmd) on this machine,
# started in a private directory and stopped again, also when the test fails.
#
#   slurm_start "$TEST_TMPDIR/slurm"    # exports SLURM_CONF; the daemons run
#   ... srun / salloc / scontrol ...
#   slurm_start "$TEST_TMPDIR/slurm" 4  # four nodes n0..n3 on this host, one slurmd each,
#                                       # under switches s0 (n0, n1) and s1 (n2, n3)
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
  for p in "$SLURM_TEST_RUN"/slurmd*.pid "$SLURM_TEST_RUN"/slurmctld.pid \
    "$SLURM_TEST_RUN"/munged.pid; do
    pid="$(cat "$p" 2>/dev/null)" || continue
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$SLURM_TEST_RUN"
  SLURM_TEST_DIR=""
}

slurm_start() {
  local d="$1" nodes="${2:-0}" h
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
SlurmdSpoolDir=$run/spool/%n
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.%n.pid
SlurmctldLogFile=$d/slurm/log/slurmctld.log
SlurmdLogFile=$d/slurm/log/slurmd.%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
TopologyPlugin=topology/tree
MailProg=/bin/true
TmpFS=$d/tmp
ReturnToService=2
CONF
  local hw="CPUs=$cpus Sockets=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads"
  if [ "$nodes" -eq 0 ]; then
    echo "NodeName=$h $hw State=UNKNOWN" >>"$d/slurm/slurm.conf"
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP" \
      >>"$d/slurm/slurm.conf"
    printf 'SwitchName=s0 Nodes=%s\nSwitchName=top Switches=s0\n' "$h" >"$d/slurm/topology.conf"
  else
    # Virtual nodes share this host's CPUs: each may run as many tasks as nodes there are.
    local i port=$((p2 + 1)) half=$(((nodes + 1) / 2))
    for i in $(seq 0 $((nodes - 1))); do
      port="$(slurm_free_port "$port")"
      echo "NodeName=n$i NodeHostname=$h Port=$port $hw State=UNKNOWN" >>"$d/slurm/slurm.conf"
      port=$((port + 1))
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP" \
      "OverSubscribe=FORCE:$nodes" >>"$d/slurm/slurm.conf"
    printf 'SwitchName=s0 Nodes=n[0-%d]\nSwitchName=s1 Nodes=n[%d-%d]\nSwitchName=top Switches=s[0-1]\n' \
      $((half - 1)) "$half" $((nodes - 1)) >"$d/slurm/topology.conf"
  fi
  export SLURM_CONF="$d/slurm/slurm.conf"
  slurmctld -c || return 1
  if [ "$nodes" -eq 0 ]; then
    mkdir -p "$run/spool/$h"
    slurmd || return 1
  else
    for i in $(seq 0 $((nodes - 1))); do
      mkdir -p "$run/spool/n$i"
      slurmd -N "n$i" || return 1
    done
  fi
  local state=""
  for _ in $(seq 100); do
    state="$(sinfo -h -o %T 2>/dev/null | sort -u | paste -sd,)"
    [ "$state" = idle ] && return 0
    sleep 0.2
  done
  echo "slurm did not come up (node state '$state')" >&2
  tail -5 "$d/slurm/log/slurmctld.log" "$d"/slurm/log/slurmd.*.log >&2
  return 1
}
