# Sourced by the MPI test scripts: one way to start a job under either MPI.
#
#   mpi_run NP [NAME=VALUE ...] -- PROGRAM ARGS...
#
# MPI_FLAVOR (the sh_test's env) picks the launcher: openmpi (default) runs
# `mpirun -np NP --bind-to none -x NAME=VALUE ...`, mpich runs
# `mpiexec.hydra -n NP -genv NAME VALUE ...` (Hydra binds nothing by default).
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
  if [ "${MPI_FLAVOR:-openmpi}" = mpich ]; then
    timeout 120 mpiexec.hydra -n "$np" "${env_args[@]}" "$@" </dev/null
  else
    timeout 120 mpirun -np "$np" --bind-to none "${env_args[@]}" "$@" </dev/null
  fi
}
