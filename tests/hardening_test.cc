// The hardening acceptance: tiny inputs that once crashed rankmap, hung it or
// exhausted the machine, each run through the real `rankmap` command in a
// child process under a 2 GiB address-space limit. Each must end by itself
// (not crash, not hang: tests/limited_run.h) with exit 0 and a valid result,
// or exit 2 and one line on stderr; the wall time and peak RSS of every case
// are printed in the test log, for reading, not asserted. (The
// limit breaks AddressSanitizer, so this test is not run under it.)
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/limited_run.h"

namespace rankmap {
namespace {

using ::testing::HasSubstr;

std::string rankmap_path;      // argv[1]
std::string otf2_writer_path;  // argv[2]

constexpr int64_t kLimitBytes = int64_t{2} << 30;

std::string Tmp(const std::string& name) {
  return ::testing::TempDir() + "/" + name;
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = Tmp(name);
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using Outcome = LimitedRun;

// Runs rankmap with `args` under RLIMIT_AS = `limit` and the hang guard.
Outcome RunRankmap(const std::string& name,
                   const std::vector<std::string>& args,
                   int64_t limit = kLimitBytes) {
  return RunLimited(rankmap_path, name, args, limit);
}

// How a run that was sent a signal once its stderr showed a marker ended.
enum class StopOutcome {
  kEndedBeforeMarker,  // the run ended by itself before the marker showed
  kEnded,              // ended after the signal (status in *status)
  kHung,               // no marker, or no end after the signal, within
                       // kHangSeconds: killed
};

// Starts rankmap with `args`, waits until its stderr holds `marker`, sends
// `sig` and waits for the process to end, with its exit status in `*status`.
// Events only; kHangSeconds is the hang guard of tests/limited_run.h.
StopOutcome StopAtMarker(const std::string& name,
                         const std::vector<std::string>& args,
                         const std::string& marker, int sig, int* status) {
  const std::string err = Tmp(name + ".err");
  const pid_t pid = fork();
  if (pid == 0) {
    struct rlimit l = {static_cast<rlim_t>(kLimitBytes),
                       static_cast<rlim_t>(kLimitBytes)};
    setrlimit(RLIMIT_AS, &l);
    // As a shell starts a foreground command, whatever the test runner set.
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    const int o = open("/dev/null", O_WRONLY);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> argv = {const_cast<char*>(rankmap_path.c_str())};
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  const auto guard = std::chrono::duration<double>(kHangSeconds);
  auto ended_within = [&](std::chrono::steady_clock::time_point from) {
    while (std::chrono::steady_clock::now() - from < guard) {
      if (waitpid(pid, status, WNOHANG) == pid) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  };
  StopOutcome outcome = StopOutcome::kHung;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < guard) {
    if (waitpid(pid, status, WNOHANG) == pid) {
      outcome = StopOutcome::kEndedBeforeMarker;
      break;
    }
    if (Slurp(err).find(marker) != std::string::npos) {
      kill(pid, sig);
      if (ended_within(std::chrono::steady_clock::now())) {
        outcome = StopOutcome::kEnded;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (outcome == StopOutcome::kHung) {
    kill(pid, SIGKILL);
    waitpid(pid, status, 0);
  }
  std::printf("%-28s status %d\n%s", name.c_str(), *status, Slurp(err).c_str());
  return outcome;
}

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// Exit 0 with a result, or exit 2 with one line; no hang, within memory.
void ExpectAnswer(const Outcome& r) {
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << r.exit_code << r.err;
  if (r.exit_code == 2) EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_FALSE(r.hung) << "no answer: killed after " << kHangSeconds << " s";
  EXPECT_LT(r.max_rss_kb * 1024, kLimitBytes);
}

void ExpectRefusal(const Outcome& r, const std::string& reason) {
  ExpectAnswer(r);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(reason));
}

// A mapping of `n` processes, one leaf index per line, each below `leaves`.
void ExpectMapping(const Outcome& r, int n, int64_t leaves) {
  ExpectAnswer(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  int count = 0;
  for (int64_t leaf; in >> leaf; ++count) {
    EXPECT_GE(leaf, 0);
    EXPECT_LT(leaf, leaves);
  }
  EXPECT_EQ(count, n);
}

std::string Ring(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += std::to_string(i) + " " + std::to_string((i + 1) % n) + " 1\n";
  return s;
}

class HardeningTest : public ::testing::Test {
 protected:
  void SetUp() override { two_ = Write("two.edges", "0 1 5\n"); }
  std::string two_;
};

TEST_F(HardeningTest, WideNodesTakeTheSparsePath) {
  // tleaf 2 50000 10 2 1 with 2 processes aborted on a 50,000^2 matrix.
  ExpectMapping(
      RunRankmap("wide-50000", {"map", "--topology", "tleaf 2 50000 10 2 1",
                                "--comm", two_, "--quiet"}),
      2, 100000);
  // A 20,000-leaf flat tree with a 20,000-process ring took 3.1 GB.
  ExpectMapping(RunRankmap("flat-20000",
                           {"map", "--topology", "tleaf 1 20000 1", "--comm",
                            Write("ring.edges", Ring(20000)), "--quiet"}),
                20000, 20000);
}

TEST_F(HardeningTest, CapacitiesAreCountsNotCopies) {
  for (const char* k : {"65536", "2147483647"}) {
    for (const char* algorithm : {"portfolio", "scotch", "random", "mpipp"}) {
      ExpectMapping(
          RunRankmap(std::string("oversubscribe-") + k + "-" + algorithm,
                     {"map", "--topology", "tleaf 1 2 1", "--oversubscribe", k,
                      "--algorithm", algorithm, "--comm", two_, "--quiet"}),
          2, 2);
    }
  }
}

TEST_F(HardeningTest, SizesAreEstimatedBeforeAllocating) {
  ExpectRefusal(
      RunRankmap("tleaf-2^30",
                 {"map", "--topology", "tleaf 1 1073741824 1", "--comm", two_}),
      "needs about 256.0 GiB, above the memory budget");
  ExpectRefusal(
      RunRankmap("tleaf-2^25", {"topology", "--topology", "tleaf 1 33554432 1",
                                "--format", "tleaf"}),
      "tleaf of 33554432 leaves (33554433 nodes) needs about 8.0 GiB");
  ExpectRefusal(RunRankmap("synthetic-4096x4096", {"topology", "--topology",
                                                   "pack:4096 core:4096 pu:1"}),
                "hwloc's load time grows with objects x PUs");
  ExpectRefusal(
      RunRankmap("network-core-22100",
                 {"topology", "--topology",
                  Write("slow.net", "network\ncluster a\n4 x core:22100\n")}),
      "node 'core:22100'");
  ExpectRefusal(
      RunRankmap(
          "network-2^26-leaves",
          {"topology", "--topology",
           Write("big.net", "network\ncluster a\n1048576 x tleaf 1 64 1\n")}),
      "network of 67108864 leaves (68157442 nodes) needs about 16.3 GiB");
  std::string clusters = "network\n";
  for (int c = 0; c < 50000; ++c)
    clusters += "cluster c" + std::to_string(c) + "\n1 x tleaf 1 2 1\n";
  ExpectMapping(RunRankmap("network-50000-clusters",
                           {"map", "--topology", Write("k.net", clusters),
                            "--comm", two_, "--quiet"}),
                2, 100000);
}

TEST_F(HardeningTest, AStrayVertexIdIsRefusedByTheReader) {
  // The 14-byte edge list once took the engine to 10.8 GB; under 2 GiB the
  // reader's budget refuses it, with more memory the isolated-vertex check.
  ExpectRefusal(
      RunRankmap("stray-id", {"map", "--topology", "tleaf 1 4 1", "--comm",
                              Write("stray.edges", "0 230000000 1\n")}),
      "vertex id 230000000 implies");
  ExpectRefusal(
      RunRankmap("stray-id-isolated",
                 {"map", "--topology", "tleaf 1 4 1", "--comm",
                  Write("stray2.edges", "0 1 1\n2 2000000 1\n")}),
      "stray2.edges:2: vertex id 2000000 implies 2000001 vertices but the "
      "file's 2 edges touch at most 4 of them");
  // 28 bytes whose self loop declares 230,000,001 vertices on purpose: the
  // reader's estimate meets the budget before anything is allocated.
  ExpectRefusal(
      RunRankmap("declared-230M",
                 {"map", "--topology", "tleaf 1 4 1", "--comm",
                  Write("declared.edges", "0 1 1\n230000000 230000000 0\n")}),
      "declared.edges:2:");
}

TEST_F(HardeningTest, IsolatedVerticesArePlacedBeforeMetis) {
  // Two edges leave 299,998 vertices without any: METIS went quadratic on
  // them (and ignored SIGTERM meanwhile). n-to-1 onto 4 leaves, one-to-one
  // onto 360,000.
  const std::string sparse = Write("isolated.edges", "0 1 5\n1 300000 5\n");
  ExpectMapping(
      RunRankmap("isolated-n-to-1", {"map", "--topology", "tleaf 1 4 1",
                                     "--comm", sparse, "--quiet"}),
      300001, 4);
  ExpectMapping(RunRankmap("isolated-one-to-one",
                           {"map", "--topology", "tleaf 2 600 10 600 1",
                            "--comm", sparse, "--quiet"}),
                300001, 360000);
}

TEST_F(HardeningTest, SignalsStopAMapInsideMetis) {
  // The multisection of a 1M-process stencil runs METIS for many seconds
  // (GKlib's own SIGTERM handler once turned the signal into a failed split,
  // and the map went on); the signal goes once the progress line, shown after
  // 2 s, names the multisection, and the command must then end through its
  // stop path: status 128 + the signal and the line saying so.
  const Outcome stencil = RunRankmap(
      "stencil-1M", {"frontend", "stencil", "--grid", "128x128x64", "--stencil",
                     "7", "--procs", "1048576", "--output", Tmp("big.grf")});
  ASSERT_EQ(stencil.exit_code, 0) << stencil.err;
  for (const int sig : {SIGTERM, SIGINT}) {
    const std::string name =
        sig == SIGTERM ? "sigterm-mid-map" : "sigint-mid-map";
    int status = 0;
    const StopOutcome outcome =
        StopAtMarker(name,
                     {"map", "--topology", "tleaf 3 64 1000 128 100 128 1",
                      "--comm", Tmp("big.grf"), "--algorithm", "multisection",
                      "--threads", "2", "--progress"},
                     "multisection", sig, &status);
    if (outcome == StopOutcome::kEndedBeforeMarker) {
      GTEST_SKIP() << "the map of 1M processes ended before its progress line "
                      "(shown after 2 s) named the multisection: this machine "
                      "maps it too fast to send a signal inside METIS";
    }
    ASSERT_EQ(outcome, StopOutcome::kEnded)
        << "no end within " << kHangSeconds << " s (of the marker or the stop)";
    ASSERT_TRUE(WIFEXITED(status)) << status;
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    EXPECT_THAT(
        Slurp(Tmp(name + ".err")),
        HasSubstr(sig == SIGTERM ? "rankmap: map: stopped by SIGTERM\n"
                                 : "rankmap: map: stopped by SIGINT\n"));
  }
}

TEST_F(HardeningTest, FifosAreRefusedBeforeAnyOpen) {
  const std::string fifo = Tmp("fifo");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ExpectRefusal(RunRankmap("fifo-comm", {"map", "--topology", "tleaf 1 4 1",
                                         "--comm", fifo}),
                fifo + ": not a regular file");
  ExpectRefusal(RunRankmap("fifo-mapping", {"eval", "--topology", "tleaf 1 4 1",
                                            "--comm", two_, "--mapping", fifo}),
                fifo + ": not a regular file");
  // An OTF2 archive whose event file, local or global definitions are FIFOs:
  // libotf2 opens those itself.
  ASSERT_FALSE(otf2_writer_path.empty());
  for (const std::string file :
       {"traces/1000.evt", "traces/1007.def", "traces.def"}) {
    const std::string dir = Tmp("otf2-fifo");
    ASSERT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
    ASSERT_EQ(std::system(("'" + otf2_writer_path + "' '" + dir + "'").c_str()),
              0);
    const std::string path = dir + "/" + file;
    ASSERT_EQ(unlink(path.c_str()), 0) << path;
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    ExpectRefusal(RunRankmap("otf2-fifo", {"map", "--topology", "tleaf 1 4 1",
                                           "--comm", dir + "/traces.otf2"}),
                  path + ": not a regular file");
  }
}

TEST_F(HardeningTest, MappingFilesCannotInflateOrMislead) {
  // A rank number sized the table: 600,000,000 ranks of 4 bytes.
  ExpectRefusal(RunRankmap("rankfile-huge-rank",
                           {"eval", "--topology", "tleaf 1 4 1", "--comm", two_,
                            "--mapping",
                            Write("huge.rf",
                                  "rank 0=localhost slot=0\n"
                                  "rank 600000000=localhost slot=1\n")}),
                "huge.rf:2: rank 600000000 but the file has 2 rank lines");
  // A "mapping" key inside another value is not the mapping.
  ExpectRefusal(
      RunRankmap(
          "json-nested-mapping",
          {"eval", "--topology", "tleaf 1 4 1", "--comm", two_, "--mapping",
           Write("nested.json",
                 "{\"algorithm\": \"x\",\n \"old\": {\"mapping\": "
                 "[0, 1]}}\n")}),
      "nested.json:2: no top-level \"mapping\" key");
}

TEST_F(HardeningTest, LaunchFormatsNeedRealHostsAndQuoteEveryPath) {
  // tleaf hosts n0, n1, ... are made up: refused before mapping.
  ExpectRefusal(
      RunRankmap(
          "tleaf-links-rankfile",
          {"map", "--topology", "tleaf 2 2 10Gbps:1us 2 40GBps:0.1us", "--comm",
           two_, "--format", "rankfile", "--output", Tmp("t.rf")}),
      "--format rankfile: a tleaf is not a real machine");
  // An output path with shell syntax: the printed command and the wrapper
  // script keep it one literal word.
  // (Relative names inside: the path's directory must exist.)
  const std::string out = Tmp("j;touch pwned;$(touch pwned)");
  const Outcome r =
      RunRankmap("quoted-output", {"map", "--topology", "this", "--comm", two_,
                                   "--slots-per-leaf", "2", "--format", "slurm",
                                   "--bind", "wrapper", "--output", out});
  ExpectAnswer(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("launch: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::string command = r.out.substr(at + 8);
  command = command.substr(0, command.find('\n'));
  const size_t srun = command.find(" srun ");
  ASSERT_NE(srun, std::string::npos) << command;
  // The command with `true` for srun, and the wrapper run for a rank it has
  // no CPUs for: the shell parses every word, and nothing is touched.
  command.replace(srun, 6, " true ");
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_EQ(
      std::system(("SLURM_PROCID=99 sh '" + out + ".bind.sh' true 2>/dev/null")
                      .c_str()) != 0,
      true);
  struct stat st;
  EXPECT_NE(stat("pwned", &st), 0) << "the output path was executed";
  EXPECT_NE(stat(Tmp("pwned").c_str(), &st), 0);
}

TEST_F(HardeningTest, ParametersAndIterationsAreBounded) {
  ExpectRefusal(RunRankmap("params-huge",
                           {"eval", "--topology", "tleaf 2 2 10 2 1", "--comm",
                            two_, "--mapping", Write("m.txt", "0\n1\n"),
                            "--model", "hockney", "--params",
                            Write("p.txt",
                                  "# huge\nlevel * hockney alpha=1e300 "
                                  "beta=1e300\n")}),
                "p.txt:2: field 'alpha': 1e+300 is above 1e+06 s");
  ExpectRefusal(
      RunRankmap("simulate-iterations",
                 {"simulate", "--topology",
                  "tleaf 2 2 10Gbps:1us 2 "
                  "40GBps:0.1us",
                  "--comm", two_, "--mapping", Write("m2.txt", "0\n1\n"),
                  "--iterations", "1000000000"}),
      "--iterations");
}

// A chain of `depth` Slurm switches, each with one node.
std::string SwitchChain(int depth) {
  std::string conf;
  for (int s = 0; s < depth; ++s) {
    conf += "SwitchName=s" + std::to_string(s) + " Nodes=h" +
            std::to_string(s) +
            (s + 1 < depth ? " Switches=s" + std::to_string(s + 1) : "") + "\n";
  }
  return conf;
}

TEST_F(HardeningTest, DeepTreesAreDrawnOrRefused) {
  // 250 levels (the Slurm reader builds chains of up to 256 switches):
  // pictures and text are drawn.
  const std::string chain = Write("chain250.conf", SwitchChain(250));
  const Outcome svg =
      RunRankmap("chain-250-svg", {"map", "--topology", chain, "--node", "pu:1",
                                   "--comm", two_, "--svg", Tmp("chain"),
                                   "--report", Tmp("chain.html"), "--quiet"});
  ExpectAnswer(svg);
  EXPECT_EQ(svg.exit_code, 0);
  EXPECT_THAT(Slurp(Tmp("chain.tree.svg")), HasSubstr("</svg>"));
  ExpectAnswer(
      RunRankmap("chain-250-text", {"topology", chain, "--node", "pu:1"}));
  // 300 and 3,000 levels: refused by the reader, naming the switch and the
  // limit, before any drawing.
  for (const int depth : {300, 3000}) {
    const std::string name = "chain" + std::to_string(depth);
    const std::string deep = Write(name + ".conf", SwitchChain(depth));
    const Outcome deep_svg = RunRankmap(
        name + "-svg", {"map", "--topology", deep, "--node", "pu:1", "--comm",
                        two_, "--svg", Tmp(name), "--quiet"});
    ExpectAnswer(deep_svg);
    EXPECT_EQ(deep_svg.exit_code, 2);
    EXPECT_THAT(deep_svg.err,
                HasSubstr("switch 's256' has 256 switches above it"));
    const Outcome text =
        RunRankmap(name + "-text", {"topology", deep, "--node", "pu:1"});
    ExpectAnswer(text);
    EXPECT_EQ(text.exit_code, 2);
  }
}

TEST_F(HardeningTest, XmlThatCrashesHwlocIsRefused) {
  std::string xml = Slurp("tests/data/hwloc-xml/16em64t-4s2c2t.xml");
  const std::string pu =
      R"(<object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001")";
  const size_t at = xml.find(pu);
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, pu.size(),
              R"(<object type="PU" os_index="0" cpuset="0x00000001")");
  ExpectRefusal(
      RunRankmap("xml-no-complete-cpuset",
                 {"map", "--topology", Write("bad.xml", xml), "--comm", two_}),
      "bad.xml:17: object PU has a cpuset but no complete_cpuset");
}

TEST_F(HardeningTest, CostsThatOverflowAreRefusedNotPrintedAsInf) {
  // Finite weights whose J passes DBL_MAX: map printed "j": inf, compare -nan.
  const std::string huge = Write("huge.edges", "0 1 1e308\n1 2 1e308\n");
  const Outcome map =
      RunRankmap("overflow-map", {"map", "--topology", "tleaf 2 2 100 2 1",
                                  "--comm", huge, "--format", "json"});
  ExpectRefusal(map, "overflows a double");
  EXPECT_THAT(map.out, ::testing::Not(HasSubstr("inf")));
  const Outcome compare = RunRankmap(
      "overflow-compare",
      {"compare", "--topology", "tleaf 2 2 100 2 1", "--comm", huge});
  ExpectRefusal(compare, "overflows a double");
  EXPECT_THAT(compare.out, ::testing::Not(HasSubstr("nan")));
}

TEST_F(HardeningTest, CompareSkipsSlowBaselinesAndTakesAList) {
  // 65,536 processes on 262,144 leaves: MPIPP took 22 s and Scotch 77 s here.
  const Outcome stencil =
      RunRankmap("stencil-65536",
                 {"frontend", "stencil", "--grid", "512x512x256", "--stencil",
                  "7", "--procs", "65536", "--output", Tmp("st.grf")});
  ASSERT_EQ(stencil.exit_code, 0) << stencil.err;
  const Outcome all = RunRankmap(
      "compare-65536", {"compare", "--topology", "tleaf 3 64 1000 64 100 64 1",
                        "--comm", Tmp("st.grf"), "--quiet"});
  ExpectAnswer(all);
  EXPECT_EQ(all.exit_code, 0);
  EXPECT_THAT(all.out, HasSubstr("mpipp         skipped: 65536 processes, "
                                 "above its limit of 16384"));
  EXPECT_THAT(all.out, HasSubstr("scotch        skipped: 262144 slots"));
  const Outcome some =
      RunRankmap("compare-list", {"compare", "--topology", "tleaf 2 2 10 2 1",
                                  "--comm", two_, "--algorithms", "scotch,tm"});
  ExpectAnswer(some);
  EXPECT_EQ(some.exit_code, 0);
  // Two rows, in the table's order, and nothing else.
  EXPECT_EQ(Lines(some.out), 4) << some.out;
  EXPECT_LT(some.out.find("\ntm "), some.out.find("\nscotch "));
  EXPECT_THAT(some.out, ::testing::Not(HasSubstr("portfolio")));
  ExpectRefusal(RunRankmap("compare-bad-list",
                           {"compare", "--topology", "tleaf 1 2 1", "--comm",
                            two_, "--algorithms", "tm,best"}),
                "--algorithms: unknown algorithm 'best'");
}

TEST_F(HardeningTest, OutOfMemoryIsOneLineNotAnAbort) {
  // 56 MiB of address space is below the budget's 64 MiB floor: the
  // 200,000-leaf tree passes the estimate and then fails to allocate. (The
  // binary's shared libraries, libxml2's ICU among them, need about 45 MiB.)
  const Outcome r = RunRankmap(
      "out-of-memory",
      {"topology", "--topology", "tleaf 1 200000 1", "--format", "tleaf"},
      int64_t{56} << 20);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err), 1);
  EXPECT_THAT(r.err, HasSubstr("rankmap: topology: out of memory"));
}

}  // namespace
}  // namespace rankmap

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: hardening_test <path of rankmap>\n");
    return 2;
  }
  rankmap::rankmap_path = argv[1];
  rankmap::otf2_writer_path = argc > 2 ? argv[2] : "";
  return RUN_ALL_TESTS();
}
