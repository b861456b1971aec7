# Sourced by the advise tests: four nodes n0..n3 of two switches that all live on this host,
# and the line each launcher starts 8 ranks on them with.
#
#   fake_nodes LAUNCHER    sets line=(...), machine=(...), in_job (runs a command as a job
#                          step would: inside a Slurm allocation for srun; the words it puts
#                          in front are in_job_words) and, for hydra, RANKMAP_TOPOLOGY;
#                          starts a Slurm of four slurmd for srun
#
# mpirun and mpiexec.hydra start their remote daemons through virtual_nodes.sh's remote shell
# ($dir/fakessh); srun through a Slurm of four slurmd (slurm_cluster.sh).
#
# Needs: $dir (scratch).
source tests/launch/virtual_nodes.sh

fake_nodes() {
  fake_remote_shell "$dir"
  printf 'n0:2\nn1:2\nn2:2\nn3:2\n' >"$dir/hosts"
  # The machine for mpirun and hydra: 2 cores a node, 2 nodes a switch, a slower network
  # above.
  cat >"$dir/machine.net" <<'EOF2'
network
link node 40GBps:0.5us
link cluster 25Gbps:2us
link network 10Gbps:5us
cluster s0
node n0 core:2
node n1 core:2
cluster s1
node n2 core:2
node n3 core:2
EOF2
  case "$1" in
    mpirun)
      line=(mpirun --mca plm_rsh_agent "$dir/fakessh" --mca btl self,tcp
        --mca mpi_yield_when_idle 1 --host n0:2,n1:2,n2:2,n3:2 -np 8 --bind-to core)
      machine=(--topology "$dir/machine.net")
      in_job_words=()
      ;;
    hydra)
      line=(mpiexec.hydra -launcher ssh -launcher-exec "$dir/fakessh" -f "$dir/hosts" -n 8
        -bind-to core)
      machine=()
      export RANKMAP_TOPOLOGY="$dir/machine.net"
      in_job_words=()
      ;;
    srun)
      source tests/launch/slurm_cluster.sh
      slurm_start "$dir/cluster" 4 || { echo "cannot start slurm"; exit 1; }
      export SLURM_MPI_TYPE=pmi2
      line=(srun -n 8 --cpu-bind=cores)
      machine=()  # Slurm's switches, each node this host's hardware
      # As a batch script would: every command of the job inside one allocation.
      in_job_words=(timeout 300 salloc -Q -N 4 -n 8)
      ;;
    *)
      echo "unknown launcher $1"
      exit 1
      ;;
  esac
  in_job() { "${in_job_words[@]}" "$@" </dev/null; }
}
