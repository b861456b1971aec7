# Sourced by the MPI test scripts: one way to start a job under either MPI.
#
#   mpi_run NP [NAME=VALUE ...] -- PROGRAM ARGS...
#
# MPI_FLAVOR (the sh_test's env) picks the launcher: openmpi (default) runs
# `mpirun -np NP --bind-to none -x NAME=VALUE ...`, mpich runs
# `mpiexec.hydra -n NP -genv NAME VALUE ...` (Hydra binds nothing by default).
# MPI_RUN_CPUS=1,0 binds rank i to the i-th CPU of the list instead (mpirun
# --cpu-list 1,0 --bind-to cpu-list:ordered, mpiexec.hydra -bind-to user:1,0).
# Every run has a timeout, so a hang fails the test instead of blocking it, and reads no stdin
# (mpirun would swallow the rest of a loop's input).
mpi_run() {
  local np="$1"
  shift
  local env_args=()
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    if [ "${MPI_FLAVOR:-openmpi}" = mpich ]; then
      env_args+=(-genv "${1%%=*}" "${1#*=}")
    else
      env_args+=(-x "$1")
    fi
    shift
  done
  shift
  local bind=(--bind-to none)
  if [ "${MPI_FLAVOR:-openmpi}" = mpich ]; then
    bind=()
    [ -n "${MPI_RUN_CPUS:-}" ] && bind=(-bind-to "user:$MPI_RUN_CPUS")
    timeout 120 mpiexec.hydra -n "$np" "${bind[@]}" "${env_args[@]}" "$@" </dev/null
  else
    [ -n "${MPI_RUN_CPUS:-}" ] && bind=(--cpu-list "$MPI_RUN_CPUS" --bind-to cpu-list:ordered)
    timeout 120 mpirun -np "$np" "${bind[@]}" "${env_args[@]}" "$@" </dev/null
  fi
}
