#include "launch/launcher_options.h"

namespace rankmap::launch {
namespace {

// Open MPI 4.1 (mpirun --help all), Hydra (mpiexec.hydra --help and the old
// spellings it still takes), Slurm 22.05 (srun(1)); see the header.
constexpr OptionSpec kOpenMpi[] = {
    {"-allow-run-as-root", 0, OptionRole::kKeep},
    {"--allow-run-as-root", 0, OptionRole::kKeep},
    {"-am", 1, OptionRole::kKeep},
    {"--app", 1, OptionRole::kRefuse},
    {"--bind-to", 1, OptionRole::kPlace},
    {"-bind-to-core", 0, OptionRole::kPlace},
    {"--bind-to-core", 0, OptionRole::kPlace},
    {"-bind-to-socket", 0, OptionRole::kPlace},
    {"--bind-to-socket", 0, OptionRole::kPlace},
    {"-bycore", 0, OptionRole::kPlace},
    {"--bycore", 0, OptionRole::kPlace},
    {"-bynode", 0, OptionRole::kPlace},
    {"--bynode", 0, OptionRole::kPlace},
    {"-byslot", 0, OptionRole::kPlace},
    {"--byslot", 0, OptionRole::kPlace},
    {"-c", 1, OptionRole::kCount},
    {"-np", 1, OptionRole::kCount},
    {"--np", 1, OptionRole::kCount},
    {"-cf", 1, OptionRole::kKeep},
    {"--cartofile", 1, OptionRole::kKeep},
    {"-continuous", 0, OptionRole::kKeep},
    {"--continuous", 0, OptionRole::kKeep},
    {"-cpu-list", 1, OptionRole::kPlace},
    {"--cpu-list", 1, OptionRole::kPlace},
    {"-cpu-set", 1, OptionRole::kPlace},
    {"--cpu-set", 1, OptionRole::kPlace},
    {"-cpus-per-proc", 1, OptionRole::kPlace},
    {"--cpus-per-proc", 1, OptionRole::kPlace},
    {"-cpus-per-rank", 1, OptionRole::kPlace},
    {"--cpus-per-rank", 1, OptionRole::kPlace},
    {"-d", 0, OptionRole::kKeep},
    {"-debug-devel", 0, OptionRole::kKeep},
    {"--debug-devel", 0, OptionRole::kKeep},
    {"-debug", 0, OptionRole::kKeep},
    {"--debug", 0, OptionRole::kKeep},
    {"-debug-daemons", 0, OptionRole::kKeep},
    {"--debug-daemons", 0, OptionRole::kKeep},
    {"-debug-daemons-file", 0, OptionRole::kKeep},
    {"--debug-daemons-file", 0, OptionRole::kKeep},
    {"-debugger", 1, OptionRole::kKeep},
    {"--debugger", 1, OptionRole::kKeep},
    {"-default-hostfile", 1, OptionRole::kKeep},
    {"--default-hostfile", 1, OptionRole::kKeep},
    {"-disable-recovery", 0, OptionRole::kKeep},
    {"--disable-recovery", 0, OptionRole::kKeep},
    {"-display-allocation", 0, OptionRole::kKeep},
    {"--display-allocation", 0, OptionRole::kKeep},
    {"-display-devel-allocation", 0, OptionRole::kKeep},
    {"--display-devel-allocation", 0, OptionRole::kKeep},
    {"-display-devel-map", 0, OptionRole::kKeep},
    {"--display-devel-map", 0, OptionRole::kKeep},
    {"-display-diffable-map", 0, OptionRole::kKeep},
    {"--display-diffable-map", 0, OptionRole::kKeep},
    {"-display-map", 0, OptionRole::kKeep},
    {"--display-map", 0, OptionRole::kKeep},
    {"-display-topo", 0, OptionRole::kKeep},
    {"--display-topo", 0, OptionRole::kKeep},
    {"-do-not-launch", 0, OptionRole::kKeep},
    {"--do-not-launch", 0, OptionRole::kKeep},
    {"-do-not-resolve", 0, OptionRole::kKeep},
    {"--do-not-resolve", 0, OptionRole::kKeep},
    {"-dvm", 0, OptionRole::kRefuse},
    {"--dvm", 0, OptionRole::kRefuse},
    {"-enable-instant-on-support", 0, OptionRole::kKeep},
    {"--enable-instant-on-support", 0, OptionRole::kKeep},
    {"-enable-recovery", 0, OptionRole::kKeep},
    {"--enable-recovery", 0, OptionRole::kKeep},
    {"-fwd-mpirun-port", 0, OptionRole::kKeep},
    {"--fwd-mpirun-port", 0, OptionRole::kKeep},
    {"-get-stack-traces", 0, OptionRole::kKeep},
    {"--get-stack-traces", 0, OptionRole::kKeep},
    {"-gmca", 2, OptionRole::kKeep},
    {"--gmca", 2, OptionRole::kKeep},
    {"-h", 0, OptionRole::kRefuse},
    {"--help", 0, OptionRole::kRefuse},
    {"-H", 1, OptionRole::kKeep},
    {"-host", 1, OptionRole::kKeep},
    {"--host", 1, OptionRole::kKeep},
    {"-hnp", 1, OptionRole::kKeep},
    {"--hnp", 1, OptionRole::kKeep},
    {"-hostfile", 1, OptionRole::kKeep},
    {"--hostfile", 1, OptionRole::kKeep},
    {"-index-argv-by-rank", 0, OptionRole::kKeep},
    {"--index-argv-by-rank", 0, OptionRole::kKeep},
    {"-launch-agent", 1, OptionRole::kKeep},
    {"--launch-agent", 1, OptionRole::kKeep},
    {"-leave-session-attached", 0, OptionRole::kKeep},
    {"--leave-session-attached", 0, OptionRole::kKeep},
    {"-machinefile", 1, OptionRole::kKeep},
    {"--machinefile", 1, OptionRole::kKeep},
    {"--map-by", 1, OptionRole::kPlace},
    {"-max-restarts", 1, OptionRole::kKeep},
    {"--max-restarts", 1, OptionRole::kKeep},
    {"-max-vm-size", 1, OptionRole::kKeep},
    {"--max-vm-size", 1, OptionRole::kKeep},
    {"-mca", 2, OptionRole::kKeep},
    {"--mca", 2, OptionRole::kKeep},
    {"-merge-stderr-to-stdout", 0, OptionRole::kKeep},
    {"--merge-stderr-to-stdout", 0, OptionRole::kKeep},
    {"-N", 1, OptionRole::kPlace},
    {"-n", 1, OptionRole::kCount},
    {"--n", 1, OptionRole::kCount},
    {"-nolocal", 0, OptionRole::kPlace},
    {"--nolocal", 0, OptionRole::kPlace},
    {"-nooversubscribe", 0, OptionRole::kKeep},
    {"--nooversubscribe", 0, OptionRole::kKeep},
    {"--noprefix", 0, OptionRole::kKeep},
    {"-novm", 0, OptionRole::kKeep},
    {"--novm", 0, OptionRole::kKeep},
    {"-npernode", 1, OptionRole::kPlace},
    {"--npernode", 1, OptionRole::kPlace},
    {"-npersocket", 1, OptionRole::kPlace},
    {"--npersocket", 1, OptionRole::kPlace},
    {"-ompi-server", 1, OptionRole::kKeep},
    {"--ompi-server", 1, OptionRole::kKeep},
    {"-output-filename", 1, OptionRole::kKeep},
    {"--output-filename", 1, OptionRole::kKeep},
    {"-output-proctable", 0, OptionRole::kKeep},
    {"--output-proctable", 0, OptionRole::kKeep},
    {"-oversubscribe", 0, OptionRole::kKeep},
    {"--oversubscribe", 0, OptionRole::kKeep},
    {"-path", 1, OptionRole::kKeep},
    {"--path", 1, OptionRole::kKeep},
    {"-pernode", 0, OptionRole::kPlace},
    {"--pernode", 0, OptionRole::kPlace},
    {"-personality", 1, OptionRole::kKeep},
    {"--personality", 1, OptionRole::kKeep},
    {"--ppr", 1, OptionRole::kPlace},
    {"--prefix", 1, OptionRole::kKeep},
    {"--preload-files", 1, OptionRole::kKeep},
    {"-q", 0, OptionRole::kKeep},
    {"--quiet", 0, OptionRole::kKeep},
    {"--rank-by", 1, OptionRole::kPlace},
    {"-report-bindings", 0, OptionRole::kKeep},
    {"--report-bindings", 0, OptionRole::kKeep},
    {"-report-child-jobs-separately", 0, OptionRole::kKeep},
    {"--report-child-jobs-separately", 0, OptionRole::kKeep},
    {"-report-events", 1, OptionRole::kKeep},
    {"--report-events", 1, OptionRole::kKeep},
    {"-report-pid", 1, OptionRole::kKeep},
    {"--report-pid", 1, OptionRole::kKeep},
    {"-report-state-on-timeout", 0, OptionRole::kKeep},
    {"--report-state-on-timeout", 0, OptionRole::kKeep},
    {"-report-uri", 1, OptionRole::kKeep},
    {"--report-uri", 1, OptionRole::kKeep},
    {"-rf", 1, OptionRole::kPlace},
    {"--rankfile", 1, OptionRole::kPlace},
    {"-s", 0, OptionRole::kKeep},
    {"--preload-binary", 0, OptionRole::kKeep},
    {"-set-cwd-to-session-dir", 0, OptionRole::kKeep},
    {"--set-cwd-to-session-dir", 0, OptionRole::kKeep},
    {"-show-progress", 0, OptionRole::kKeep},
    {"--show-progress", 0, OptionRole::kKeep},
    {"-stdin", 1, OptionRole::kKeep},
    {"--stdin", 1, OptionRole::kKeep},
    {"-tag-output", 0, OptionRole::kKeep},
    {"--tag-output", 0, OptionRole::kKeep},
    {"-timeout", 1, OptionRole::kKeep},
    {"--timeout", 1, OptionRole::kKeep},
    {"-timestamp-output", 0, OptionRole::kKeep},
    {"--timestamp-output", 0, OptionRole::kKeep},
    {"-tune", 1, OptionRole::kKeep},
    {"-tv", 0, OptionRole::kKeep},
    {"--tv", 0, OptionRole::kKeep},
    {"-use-hwthread-cpus", 0, OptionRole::kPlace},
    {"--use-hwthread-cpus", 0, OptionRole::kPlace},
    {"-use-regexp", 0, OptionRole::kKeep},
    {"--use-regexp", 0, OptionRole::kKeep},
    {"-v", 0, OptionRole::kKeep},
    {"--verbose", 0, OptionRole::kKeep},
    {"-V", 0, OptionRole::kRefuse},
    {"--version", 0, OptionRole::kRefuse},
    {"-wd", 1, OptionRole::kKeep},
    {"--wd", 1, OptionRole::kKeep},
    {"-wdir", 1, OptionRole::kKeep},
    {"--wdir", 1, OptionRole::kKeep},
    {"-x", 1, OptionRole::kKeep},
    {"-xml", 0, OptionRole::kKeep},
    {"--xml", 0, OptionRole::kKeep},
    {"-xml-file", 1, OptionRole::kKeep},
    {"--xml-file", 1, OptionRole::kKeep},
    {"-xterm", 1, OptionRole::kKeep},
    {"--xterm", 1, OptionRole::kKeep},
};

constexpr OptionSpec kHydra[] = {
    {"-genv", 2, OptionRole::kKeep},
    {"-genvlist", 1, OptionRole::kKeep},
    {"-genvnone", 0, OptionRole::kKeep},
    {"-genvall", 0, OptionRole::kKeep},
    {"-f", 1, OptionRole::kPlace},
    {"-hostfile", 1, OptionRole::kPlace},
    {"-machinefile", 1, OptionRole::kPlace},
    {"-hosts", 1, OptionRole::kPlace},
    {"-host", 1, OptionRole::kPlace},
    {"-wdir", 1, OptionRole::kKeep},
    {"-configfile", 1, OptionRole::kRefuse},
    {"-env", 2, OptionRole::kKeep},
    {"-envlist", 1, OptionRole::kKeep},
    {"-envnone", 0, OptionRole::kKeep},
    {"-envall", 0, OptionRole::kKeep},
    {"-n", 1, OptionRole::kCount},
    {"-np", 1, OptionRole::kCount},
    {"-launcher", 1, OptionRole::kKeep},
    {"-bootstrap", 1, OptionRole::kKeep},
    {"-launcher-exec", 1, OptionRole::kKeep},
    {"-bootstrap-exec", 1, OptionRole::kKeep},
    {"-enable-x", 0, OptionRole::kKeep},
    {"-disable-x", 0, OptionRole::kKeep},
    {"-rmk", 1, OptionRole::kKeep},
    {"-topolib", 1, OptionRole::kKeep},
    {"-bind-to", 1, OptionRole::kPlace},
    {"-binding", 1, OptionRole::kPlace},
    {"-map-by", 1, OptionRole::kPlace},
    {"-membind", 1, OptionRole::kPlace},
    {"-demux", 1, OptionRole::kKeep},
    {"-verbose", 0, OptionRole::kKeep},
    {"-v", 0, OptionRole::kKeep},
    {"-info", 0, OptionRole::kRefuse},
    {"-version", 0, OptionRole::kRefuse},
    {"-print-all-exitcodes", 0, OptionRole::kKeep},
    {"-iface", 1, OptionRole::kKeep},
    {"-ppn", 1, OptionRole::kPlace},
    {"-profile", 0, OptionRole::kKeep},
    {"-prepend-rank", 0, OptionRole::kKeep},
    {"-l", 0, OptionRole::kKeep},
    {"-prepend-pattern", 1, OptionRole::kKeep},
    {"-outfile-pattern", 1, OptionRole::kKeep},
    {"-errfile-pattern", 1, OptionRole::kKeep},
    {"-nameserver", 1, OptionRole::kKeep},
    {"-disable-auto-cleanup", 0, OptionRole::kKeep},
    {"-enable-auto-cleanup", 0, OptionRole::kKeep},
    {"-disable-hostname-propagation", 0, OptionRole::kKeep},
    {"-enable-hostname-propagation", 0, OptionRole::kKeep},
    {"-order-nodes", 1, OptionRole::kPlace},
    {"-localhost", 1, OptionRole::kKeep},
    {"-usize", 1, OptionRole::kKeep},
    {"-pmi-port", 0, OptionRole::kKeep},
    {"-skip-launch-node", 0, OptionRole::kPlace},
    {"-gpus-per-proc", 1, OptionRole::kKeep},
};

constexpr OptionSpec kSlurm[] = {
    {"--accel-bind", 1, OptionRole::kKeep},
    {"-A", 1, OptionRole::kKeep},
    {"--account", 1, OptionRole::kKeep},
    {"--acctg-freq", 1, OptionRole::kKeep},
    {"--bb", 1, OptionRole::kKeep},
    {"--bbf", 1, OptionRole::kKeep},
    {"--bcast", -1, OptionRole::kKeep},
    {"--bcast-exclude", 1, OptionRole::kKeep},
    {"-b", 1, OptionRole::kKeep},
    {"--begin", 1, OptionRole::kKeep},
    {"-D", 1, OptionRole::kKeep},
    {"--chdir", 1, OptionRole::kKeep},
    {"--cluster-constraint", 1, OptionRole::kKeep},
    {"-M", 1, OptionRole::kKeep},
    {"--clusters", 1, OptionRole::kKeep},
    {"--comment", 1, OptionRole::kKeep},
    {"--compress", -1, OptionRole::kKeep},
    {"-C", 1, OptionRole::kKeep},
    {"--constraint", 1, OptionRole::kKeep},
    {"--container", 1, OptionRole::kKeep},
    {"--contiguous", 0, OptionRole::kKeep},
    {"-S", 1, OptionRole::kKeep},
    {"--core-spec", 1, OptionRole::kKeep},
    {"--cores-per-socket", 1, OptionRole::kKeep},
    {"--cpu-bind", 1, OptionRole::kPlace},
    {"--cpu_bind", 1, OptionRole::kPlace},
    {"--cpu-freq", 1, OptionRole::kKeep},
    {"--cpus-per-gpu", 1, OptionRole::kKeep},
    {"-c", 1, OptionRole::kKeep},
    {"--cpus-per-task", 1, OptionRole::kKeep},
    {"--deadline", 1, OptionRole::kKeep},
    {"--delay-boot", 1, OptionRole::kKeep},
    {"-d", 1, OptionRole::kKeep},
    {"--dependency", 1, OptionRole::kKeep},
    {"-X", 0, OptionRole::kKeep},
    {"--disable-status", 0, OptionRole::kKeep},
    {"-m", 1, OptionRole::kPlace},
    {"--distribution", 1, OptionRole::kPlace},
    {"--epilog", 1, OptionRole::kKeep},
    {"-e", 1, OptionRole::kKeep},
    {"--error", 1, OptionRole::kKeep},
    {"--exact", 0, OptionRole::kKeep},
    {"-x", 1, OptionRole::kKeep},
    {"--exclude", 1, OptionRole::kKeep},
    {"--exclusive", -1, OptionRole::kKeep},
    {"--export", 1, OptionRole::kKeep},
    {"-B", 1, OptionRole::kPlace},
    {"--extra-node-info", 1, OptionRole::kPlace},
    {"--gid", 1, OptionRole::kKeep},
    {"--gpu-bind", 1, OptionRole::kKeep},
    {"--gpu-freq", 1, OptionRole::kKeep},
    {"-G", 1, OptionRole::kKeep},
    {"--gpus", 1, OptionRole::kKeep},
    {"--gpus-per-node", 1, OptionRole::kKeep},
    {"--gpus-per-socket", 1, OptionRole::kKeep},
    {"--gpus-per-task", 1, OptionRole::kKeep},
    {"--gres", 1, OptionRole::kKeep},
    {"--gres-flags", 1, OptionRole::kKeep},
    {"-h", 0, OptionRole::kRefuse},
    {"--help", 0, OptionRole::kRefuse},
    {"--het-group", 1, OptionRole::kRefuse},
    {"--hint", 1, OptionRole::kPlace},
    {"-H", 0, OptionRole::kKeep},
    {"--hold", 0, OptionRole::kKeep},
    {"-I", -1, OptionRole::kKeep},
    {"--immediate", -1, OptionRole::kKeep},
    {"-i", 1, OptionRole::kKeep},
    {"--input", 1, OptionRole::kKeep},
    {"-J", 1, OptionRole::kKeep},
    {"--job-name", 1, OptionRole::kKeep},
    {"--jobid", 1, OptionRole::kKeep},
    {"-K", -1, OptionRole::kKeep},
    {"--kill-on-bad-exit", -1, OptionRole::kKeep},
    {"-l", 0, OptionRole::kKeep},
    {"--label", 0, OptionRole::kKeep},
    {"-L", 1, OptionRole::kKeep},
    {"--licenses", 1, OptionRole::kKeep},
    {"--mail-type", 1, OptionRole::kKeep},
    {"--mail-user", 1, OptionRole::kKeep},
    {"--mcs-label", 1, OptionRole::kKeep},
    {"--mem", 1, OptionRole::kKeep},
    {"--mem-bind", 1, OptionRole::kKeep},
    {"--mem-per-cpu", 1, OptionRole::kKeep},
    {"--mem-per-gpu", 1, OptionRole::kKeep},
    {"--mincpus", 1, OptionRole::kKeep},
    {"--mpi", 1, OptionRole::kKeep},
    {"--msg-timeout", 1, OptionRole::kKeep},
    {"--multi-prog", 0, OptionRole::kRefuse},
    {"--network", 1, OptionRole::kKeep},
    {"--nice", -1, OptionRole::kKeep},
    {"-Z", 0, OptionRole::kKeep},
    {"--no-allocate", 0, OptionRole::kKeep},
    {"-k", -1, OptionRole::kKeep},
    {"--no-kill", -1, OptionRole::kKeep},
    {"-F", 1, OptionRole::kPlace},
    {"--nodefile", 1, OptionRole::kPlace},
    {"-w", 1, OptionRole::kPlace},
    {"--nodelist", 1, OptionRole::kPlace},
    {"-N", 1, OptionRole::kKeep},
    {"--nodes", 1, OptionRole::kKeep},
    {"-n", 1, OptionRole::kCount},
    {"--ntasks", 1, OptionRole::kCount},
    {"--ntasks-per-core", 1, OptionRole::kPlace},
    {"--ntasks-per-gpu", 1, OptionRole::kPlace},
    {"--ntasks-per-node", 1, OptionRole::kPlace},
    {"--ntasks-per-socket", 1, OptionRole::kPlace},
    {"--open-mode", 1, OptionRole::kKeep},
    {"-o", 1, OptionRole::kKeep},
    {"--output", 1, OptionRole::kKeep},
    {"-O", 0, OptionRole::kPlace},
    {"--overcommit", 0, OptionRole::kPlace},
    {"--overlap", 0, OptionRole::kKeep},
    {"-s", 0, OptionRole::kKeep},
    {"--oversubscribe", 0, OptionRole::kKeep},
    {"-p", 1, OptionRole::kKeep},
    {"--partition", 1, OptionRole::kKeep},
    {"--power", 1, OptionRole::kKeep},
    {"--prefer", 1, OptionRole::kKeep},
    {"-E", 0, OptionRole::kKeep},
    {"--preserve-env", 0, OptionRole::kKeep},
    {"--priority", 1, OptionRole::kKeep},
    {"--profile", 1, OptionRole::kKeep},
    {"--prolog", 1, OptionRole::kKeep},
    {"--propagate", -1, OptionRole::kKeep},
    {"--pty", 0, OptionRole::kKeep},
    {"-q", 1, OptionRole::kKeep},
    {"--qos", 1, OptionRole::kKeep},
    {"-Q", 0, OptionRole::kKeep},
    {"--quiet", 0, OptionRole::kKeep},
    {"--quit-on-interrupt", 0, OptionRole::kKeep},
    {"--reboot", 0, OptionRole::kKeep},
    {"-r", 1, OptionRole::kPlace},
    {"--relative", 1, OptionRole::kPlace},
    {"--reservation", 1, OptionRole::kKeep},
    {"--resv-ports", -1, OptionRole::kKeep},
    {"--send-libs", -1, OptionRole::kKeep},
    {"--signal", 1, OptionRole::kKeep},
    {"--slurmd-debug", 1, OptionRole::kKeep},
    {"--sockets-per-node", 1, OptionRole::kKeep},
    {"--spread-job", 0, OptionRole::kPlace},
    {"--switches", 1, OptionRole::kKeep},
    {"--task-epilog", 1, OptionRole::kKeep},
    {"--task-prolog", 1, OptionRole::kKeep},
    {"--test-only", 0, OptionRole::kKeep},
    {"--thread-spec", 1, OptionRole::kKeep},
    {"-T", 1, OptionRole::kKeep},
    {"--threads", 1, OptionRole::kKeep},
    {"--threads-per-core", 1, OptionRole::kKeep},
    {"-t", 1, OptionRole::kKeep},
    {"--time", 1, OptionRole::kKeep},
    {"--time-min", 1, OptionRole::kKeep},
    {"--tmp", 1, OptionRole::kKeep},
    {"--uid", 1, OptionRole::kKeep},
    {"-u", 0, OptionRole::kKeep},
    {"--unbuffered", 0, OptionRole::kKeep},
    {"--usage", 0, OptionRole::kRefuse},
    {"--use-min-nodes", 0, OptionRole::kKeep},
    {"-v", 0, OptionRole::kKeep},
    {"--verbose", 0, OptionRole::kKeep},
    {"-V", 0, OptionRole::kRefuse},
    {"--version", 0, OptionRole::kRefuse},
    {"-W", 1, OptionRole::kKeep},
    {"--wait", 1, OptionRole::kKeep},
    {"--wckey", 1, OptionRole::kKeep},
    {"--x11", -1, OptionRole::kKeep},
};

const OptionSpec* Lookup(Launcher launcher, std::string_view name) {
  for (const OptionSpec& o : LauncherOptions(launcher)) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

OptionMatch OpenMpiOption(std::string_view word) {
  OptionMatch m;
  m.spec = Lookup(Launcher::kOpenMpi, word);
  // A long option with one dash is the same option (-map-by, --map-by).
  if (m.spec == nullptr && word.size() > 2 && word[1] != '-') {
    m.spec = Lookup(Launcher::kOpenMpi, std::string("-") + std::string(word));
  }
  return m;
}

OptionMatch HydraOption(std::string_view word) {
  OptionMatch m;
  std::string name(word.starts_with("--") ? word.substr(1) : word);
  if (const size_t eq = name.find('='); eq != std::string::npos) {
    m.inline_value = name.substr(eq + 1);
    m.has_inline = true;
    name.resize(eq);
  }
  m.spec = Lookup(Launcher::kHydra, name);
  return m;
}

OptionMatch SlurmOption(std::string_view word) {
  OptionMatch m;
  if (word.starts_with("--")) {
    std::string_view name = word;
    if (const size_t eq = word.find('='); eq != std::string_view::npos) {
      m.inline_value = std::string(word.substr(eq + 1));
      m.has_inline = true;
      name = word.substr(0, eq);
    }
    m.spec = Lookup(Launcher::kSlurm, name);
    return m;
  }
  m.spec = Lookup(Launcher::kSlurm, word.substr(0, 2));
  if (m.spec == nullptr || word.size() == 2) return m;
  if (m.spec->values != 0) {  // -n4, -K1
    m.inline_value = std::string(word.substr(2));
    m.has_inline = true;
    return m;
  }
  // -lK: every letter an option without a value, kept.
  if (m.spec->role != OptionRole::kKeep) return OptionMatch{};
  // (getopt's grouping: a letter with an optional value takes the rest.)
  for (size_t i = 2; i < word.size(); ++i) {
    const OptionSpec* o =
        Lookup(Launcher::kSlurm, std::string("-") + word[i]);
    if (o == nullptr || o->values > 0 || o->role != OptionRole::kKeep) {
      return OptionMatch{};
    }
    if (o->values < 0) break;
  }
  m.grouped_flags = true;
  return m;
}

}  // namespace

std::span<const OptionSpec> LauncherOptions(Launcher launcher) {
  switch (launcher) {
    case Launcher::kOpenMpi:
      return kOpenMpi;
    case Launcher::kHydra:
      return kHydra;
    case Launcher::kSlurm:
      return kSlurm;
  }
  return {};
}

OptionMatch FindOption(Launcher launcher, std::string_view word) {
  switch (launcher) {
    case Launcher::kOpenMpi:
      return OpenMpiOption(word);
    case Launcher::kHydra:
      return HydraOption(word);
    case Launcher::kSlurm:
      return SlurmOption(word);
  }
  return {};
}

}  // namespace rankmap::launch
