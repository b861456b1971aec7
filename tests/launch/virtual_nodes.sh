# Sourced by tests that launch MPI jobs on several nodes that all live on this host: mpirun and
# mpiexec.hydra start their remote daemons through a remote shell that runs them here under the
# node's name (SLURMD_NODENAME, which the profiler, the reorder library's job tree and the test
# programs report as the host), each node with a temporary directory of its own (Open MPI's
# daemons of one job would otherwise race to make the same session directory on this one host).
#
#   fake_remote_shell DIR   writes DIR/fakessh: mpirun --mca plm_rsh_agent DIR/fakessh, or
#                           mpiexec.hydra -launcher ssh -launcher-exec DIR/fakessh
fake_remote_shell() {
  local dir="$1"
  # Skips ssh's options, then runs the command under the node's name.
  cat >"$dir/fakessh" <<SCRIPT
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1
shift
mkdir -p "$dir/node-tmp/\$host"
SLURMD_NODENAME=\$host TMPDIR="$dir/node-tmp/\$host" exec sh -c "\$*"
SCRIPT
  chmod +x "$dir/fakessh"
}
