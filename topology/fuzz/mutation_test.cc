// Seeded mutation testing of every topology reader (tleaf, hwloc synthetic
// strings, network specs, hwloc XML, SimGrid platforms, Slurm topology.conf,
// ibnetdiscover dumps): valid inputs are mutated thousands of
// times (byte edits, tokens swapped for hostile counts, attributes of XML
// objects dropped or given hostile values, lines duplicated, swapped or
// removed, truncation); each result must be a valid tree or a one-line error
// naming the input (reader_check.h), within the fuzz budgets. Runs in CI, also
// under ASan/UBSan. Every input that once crashed, hung or exhausted memory is
// a seed of its own below.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "base/text_mutation.h"
#include "gtest/gtest.h"
#include "topology/fuzz/reader_check.h"

namespace rankmap::topology::fuzz {
namespace {

using ::rankmap::base::IsOk;

// Machine descriptions (tleaf, synthetic strings, network specs): counts
// that overflow or exhaust memory, keywords out of place; "name:count" tokens
// have their count swapped half the time.
const base::MutationVocabulary& MachineVocabulary() {
  static const base::MutationVocabulary* const kVocabulary =
      new base::MutationVocabulary{"0123456789 \n:.-xtleafpucorenodnetwk#",
                                   {"0",
                                    "-1",
                                    "1",
                                    "2",
                                    "2147483647",
                                    "2147483648",
                                    "1073741824",
                                    "65536",
                                    "22100",
                                    "4096",
                                    "100000",
                                    "1e308",
                                    "nan",
                                    "inf",
                                    "",
                                    "x",
                                    "tleaf",
                                    "core:65536",
                                    "pu:2147483647",
                                    "network",
                                    "cluster",
                                    "999999999999999999999"},
                                   /*max_edits=*/3,
                                   /*colon_values=*/true};
  return *kVocabulary;
}

// For the cluster files (SimGrid, Slurm, ibnetdiscover): counts that
// overflow, names that are not host names, keys in another case.
const base::MutationVocabulary& ClusterVocabulary() {
  static const base::MutationVocabulary* const kVocabulary =
      new base::MutationVocabulary{"0123456789 \n:.-xtleafpucorenodnetwk#",
                                   {
                                       "0",
                                       "1048576",
                                       "9223372036854775807",
                                       "0-9223372036854775807",
                                       "tux[0-4194303]",
                                       "n[0-999999999]",
                                       "-oProxyCommand",
                                       "../x",
                                       "a&#10;b",
                                       "nodes=tux[0-1]",
                                       "SWITCHES=s0",
                                       "Switches=s0,s0",
                                       "LinkSpeed=1e-300",
                                       "Level=0",
                                       "\"-oProxy HCA-1\"",
                                       "\"S-1\"[1]",
                                       "FAT_TREE",
                                       "300;1",
                                       "1e308",
                                       "",
                                   },
                                   /*max_edits=*/3,
                                   /*colon_values=*/true};
  return *kVocabulary;
}

const char* const kXmlAttributes[] = {"cpuset",         "complete_cpuset",
                                      "allowed_cpuset", "online_cpuset",
                                      "nodeset",        "complete_nodeset",
                                      "os_index",       "type",
                                      "gp_index",       "depth",
                                      "cache_size",     "kind"};
const char* const kXmlValues[] = {
    "0x0",
    "0x1",
    "0xffffffff",
    "",
    "-1",
    "zz",
    "PU",
    "Core",
    "NUMANode",
    "Misc",
    "2147483647",
    "4294967295",
    "0x1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,0x0"};

const std::vector<std::string> kHwlocAttributes(std::begin(kXmlAttributes),
                                                std::end(kXmlAttributes));
const std::vector<std::string> kHwlocValues(std::begin(kXmlValues),
                                            std::end(kXmlValues));

const std::vector<std::string> kPlatformAttributes = {
    "id",      "prefix",  "suffix",    "radical",     "core",
    "bw",      "lat",     "speed",     "topology",    "topo_parameters",
    "src",     "dst",     "gw_src",    "gw_dst",      "bandwidth",
    "latency", "version", "router_id", "loopback_bw", "routing"};
const std::vector<std::string> kPlatformValues = {
    "0",
    "1048576",
    "0-9223372036854775807",
    "9223372036854775806-9223372036854775807",
    "0-67108863",
    "a&#10;b",
    "-oProxyCommand",
    "../x",
    std::string(300, 'p'),
    "FAT_TREE",
    "DRAGONFLY",
    "TORUS",
    "300;1;1;1",
    "2;4,4;1,2;1,2",
    "1e308Bps",
    "0s",
    "nan",
    "",
    "4.1",
    "Full"};

// Attribute-level edits of XML (attributes and values from the lists), then
// the generic ones now and then.
std::string MutateXml(std::string s, std::mt19937_64& rng,
                      const std::vector<std::string>& attributes,
                      const std::vector<std::string>& values) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const std::string attr =
        " " + attributes[rng() % attributes.size()] + "=\"";
    // The k-th occurrence of the attribute, k at random.
    std::vector<size_t> at;
    for (size_t p = s.find(attr); p != std::string::npos;
         p = s.find(attr, p + 1))
      at.push_back(p);
    switch (rng() % 4) {
      case 0:
      case 1: {
        if (at.empty()) break;
        const size_t p = at[rng() % at.size()];
        const size_t end = s.find('"', p + attr.size());
        if (end == std::string::npos) break;
        if (rng() % 2 == 0) {
          s.erase(p, end + 1 - p);  // drop the attribute
        } else {
          s.replace(p + attr.size(), end - p - attr.size(),
                    values[rng() % values.size()]);
        }
        break;
      }
      default:
        s = base::MutateText(std::move(s), rng, MachineVocabulary());
        break;
    }
  }
  return s;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Reader {
  const char* name;
  TopologyReaderFn read;
  const char* prefix;
  std::vector<std::string> seeds;
  int64_t mutants;
  // XML: its attributes and hostile values; else text edits with
  // `vocabulary` (MachineVocabulary() when null).
  const std::vector<std::string>* attributes = nullptr;
  const std::vector<std::string>* values = nullptr;
  const base::MutationVocabulary* vocabulary = nullptr;
};

// A chain of n Slurm switches, or of n InfiniBand switches above one host.
std::string SlurmChain(int n) {
  std::string s = "SwitchName=s0 Nodes=tux0\n";
  for (int i = 1; i < n; ++i)
    s += "SwitchName=s" + std::to_string(i) + " Switches=s" +
         std::to_string(i - 1) + "\n";
  return s;
}

std::string IbChain(int n) {
  std::string s = "Ca 1 \"H-1\" # \"n1 HCA-1\"\n[1] \"S-0\"[1]\n";
  for (int i = 0; i < n; ++i) {
    s += "Switch 3 \"S-" + std::to_string(i) + "\" # \"sw\"\n";
    if (i == 0) s += "[1] \"H-1\"[1]\n";
    if (i > 0) s += "[2] \"S-" + std::to_string(i - 1) + "\"[3]\n";
    if (i + 1 < n) s += "[3] \"S-" + std::to_string(i + 1) + "\"[2]\n";
  }
  return s;
}

constexpr char kIbFatTree[] =
    "switchguid=0xa001(a001)\n"
    "Switch\t36 \"S-a001\"\t# \"leaf-1\" base port 0 lid 10 lmc 0\n"
    "[1]\t\"H-1\"[1](1)\t# \"n01 HCA-1\" lid 1 4xEDR\n"
    "[2]\t\"H-2\"[1](2)\t# \"n02 HCA-1\" lid 2 4xEDR\n"
    "[35]\t\"S-b001\"[1]\t# \"spine-1\" lid 20 4xEDR\n"
    "\n"
    "Switch\t36 \"S-a002\"\t# \"leaf-2\" base port 0 lid 11 lmc 0\n"
    "[1]\t\"H-3\"[1](3)\t# \"n03 HCA-1\" lid 3 4xEDR\n"
    "[35]\t\"S-b001\"[2]\t# \"spine-1\" lid 20 4xEDR\n"
    "\n"
    "Switch\t36 \"S-b001\"\t# \"spine-1\" base port 0 lid 20 lmc 0\n"
    "[1]\t\"S-a001\"[35]\t# \"leaf-1\" lid 10 4xEDR\n"
    "[2]\t\"S-a002\"[35]\t# \"leaf-2\" lid 11 4xEDR\n"
    "\n"
    "Ca\t1 \"H-1\"\t# \"n01 HCA-1\"\n[1](1)\t\"S-a001\"[1]\t# lid 1\n"
    "Ca\t1 \"H-2\"\t# \"n02 HCA-1\"\n[1](2)\t\"S-a001\"[2]\t# lid 2\n"
    "Ca\t1 \"H-3\"\t# \"n03 mlx5_0\"\n[1](3)\t\"S-a002\"[1]\t# lid 3\n";

// "1,1,...,1", n ones.
std::string Ones(int n) {
  std::string s = "1";
  for (int i = 1; i < n; ++i) s += ",1";
  return s;
}

// A SimGrid cluster with `attrs` (the ones every cluster needs are given).
std::string Platform(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body +
         "\n</platform>\n";
}

std::string Cluster(const std::string& attrs) {
  return Platform("<cluster id=\"c\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" " +
                  attrs + "/>");
}

// SimGrid platforms: clusters, zones of hosts, zones of zones, and the
// inputs that once crashed, looped or exhausted memory.
Reader PlatformReader() {
  return {
      "p.xml",
      ReadSimGridText,
      "p.xml",
      {Cluster(R"(prefix="node-" radical="0-1,5,7" suffix=".lan" core="12" )"
               R"(bb_bw="2.5GBps" bb_lat="4us" loopback_bw="40GBps" )"
               R"(loopback_lat="0.5us")"),
       Cluster(R"(prefix="n" suffix="" radical="0-15" topology="FAT_TREE" )"
               R"(topo_parameters="2;4,4;1,2;1,2")"),
       Platform(R"(<zone id="z" routing="Floyd">
<host id="a" speed="1Gf" core="2"/><host id="b" speed="1Gf"/>
<router id="r"/><link id="l" bandwidth="1GBps" latency="1us"/>
<link id="lo" bandwidth="10GBps" latency="0"/>
<route src="a" dst="r"><link_ctn id="l"/></route>
<route src="b" dst="r"><link_ctn id="l"/></route>
<route src="a" dst="a"><link_ctn id="lo"/></route></zone>)"),
       Platform(R"(<zone id="top" routing="Full">
<cluster id="x" prefix="x" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us"/>
<cluster id="y" prefix="y" suffix="" radical="0-2" speed="1Gf" bw="1GBps" lat="1us"/>
<link id="xy" bandwidth="100MBps" latency="1ms"/>
<zoneRoute src="x" dst="y" gw_src="xx_router" gw_dst="yy_router"><link_ctn id="xy"/></zoneRoute>
</zone>)"),
       // once 16 GiB, an endless radical, a stack overflow, a newline in
       // a host name, a 4,000-character prefix
       Cluster(R"(prefix="n" suffix="" radical="0-63" core="1048576")"),
       Cluster(
           R"(prefix="n" suffix="" radical="9223372036854775806-9223372036854775807")"),
       Cluster(R"(prefix="n" suffix="" radical="0" topology="FAT_TREE" )"
               R"(topo_parameters="300;)" +
               Ones(300) + ";" + Ones(300) + ";" + Ones(300) + "\""),
       Platform(
           R"(<zone id="z" routing="Full"><host id="a&#10;b" speed="1Gf"/></zone>)"),
       Cluster(R"(prefix=")" + std::string(4000, 'p') +
               R"(" suffix="" radical="0-99999")")},
      600,
      &kPlatformAttributes,
      &kPlatformValues};
}

// Slurm topology.conf and scontrol output, and the files that once took
// 50 s, 8 x 4M hosts, dropped a key or named ssh options.
Reader SlurmReader() {
  return {
      "t.conf",
      ReadSlurmText,
      "t.conf",
      {"SwitchName=s0 Nodes=tux[0-3] LinkSpeed=100\n"
       "switchname=s1 nodes=tux[4-6,12]\n"
       "SwitchName=top Switches=s[0-1] LinkSpeed=50\n",
       "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-1]\n"
       "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=tux[2-3]\n"
       "SwitchName=top Level=1 LinkSpeed=1 Nodes=tux[0-3] Switches=s[0-1]\n",
       // once 50 s (a chain), 8 x 4M hosts, a dropped key, ssh options
       SlurmChain(300), "SwitchName=s0 Nodes=tux[0-4194303]\n",
       "SwitchName=s0 Nodes=a nodes=b\n",
       "SwitchName=s0 Nodes=-oProxyCommand,../x\n"},
      1000,
      nullptr,
      nullptr,
      &ClusterVocabulary()};
}

// ibnetdiscover dumps, and the chain and the host name that once took 31 s
// or reached ssh.
Reader IbnetdiscoverReader() {
  return {"f.ib",
          ReadIbnetdiscoverText,
          "f.ib",
          {kIbFatTree,
           // once 31 s (a chain of 20,000), a description as an ssh option
           IbChain(300),
           "Ca 1 \"H-1\" # \"-oProxyCommand=x HCA-1\"\n[1] \"S-0\"[1]\n"
           "Switch 3 \"S-0\" # \"sw\"\n[1] \"H-1\"[1]\n"},
          1000,
          nullptr,
          nullptr,
          &ClusterVocabulary()};
}

std::vector<Reader> Readers() {
  const std::string data = "tests/data/hwloc-xml/";
  return {
      {"t.tgt",
       ReadTleafText,
       "t.tgt",
       {"tleaf 3 2 100 4 10 8 1", "tleaf\n2 4 2.5\n2 0.5",
        "tleaf 4 16 1000 16 100 2 10 8 1",
        // once 6 GB: 2^25 leaves under the old 2^30 cap
        "tleaf 1 33554432 1", "tleaf 2 50000 10 2 1"},
       3000},
      {"synthetic",
       ReadSyntheticText,
       "topology/",
       {"pack:2 numa:2 core:4 pu:2", "pack:2 core:6", "core:8",
        "node:4 pack:2 l3:1 core:4 pu:2",
        // once minutes: quadratic in hwloc
        "pack:4096 core:4096 pu:1", "core:22100"},
       1500},
      {"n.net",
       ReadNetworkText,
       "n.net",
       {"network\ncost cluster 50\ncluster x\n2 x core:2\ncluster y\nnode y0 "
        "tleaf 2 2 3 2 1\n",
        "network\nbandwidths 100\ncluster a\n2 x pack:2 core:2\ncluster b\n1 x "
        "core:3\n10 2\n2 20\n",
        "network\nleaf core\ncluster a\n3 x pack:1 core:2 pu:2\ncosts\n0\n",
        // once a hang, and 9.3 GB
        "network\ncluster a\n4 x core:22100\n",
        "network\ncluster a\n1048576 x tleaf 1 64 1\n"},
       1500},
      {"x.xml",
       ReadXmlText,
       "x.xml",
       {Slurp(data + "16em64t-4s2c2t.xml"),
        Slurp(data + "8ia64-2n2s2c+1n.v1.xml"),
        Slurp(data + "16amd64-8n2c-cpusets.xml"),
        Slurp(data + "16-2gr2gr2n2c+misc.xml")},
       600,
       &kHwlocAttributes,
       &kHwlocValues},
      PlatformReader(),
      SlurmReader(),
      IbnetdiscoverReader(),
  };
}

TEST(TopologyMutationTest, EveryReaderAcceptsValidTreesOrReportsOneLine) {
  const int64_t scale = base::EnvOr("RANKMAP_MUTANTS", 0);
  const char* last = std::getenv("RANKMAP_MUTATION_LAST");
  for (const Reader& r : Readers()) {
    SCOPED_TRACE(r.name);
    std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261124));
    const auto start = std::chrono::steady_clock::now();
    int64_t accepted = 0, rejected = 0;
    for (const std::string& seed : r.seeds) {
      ASSERT_FALSE(seed.empty());
      bool parsed = false;
      ASSERT_THAT(CheckReader(r.read, seed, r.name, r.prefix, &parsed), IsOk())
          << seed.substr(0, 200);
      (parsed ? accepted : rejected)++;
    }
    const int64_t mutants = scale > 0 ? scale : r.mutants;
    for (int64_t i = 0; i < mutants; ++i) {
      const std::string& seed = r.seeds[i % r.seeds.size()];
      const std::string input =
          r.attributes != nullptr
              ? MutateXml(seed, rng, *r.attributes, *r.values)
              : base::MutateText(seed, rng,
                                 r.vocabulary != nullptr ? *r.vocabulary
                                                         : MachineVocabulary());
      if (last != nullptr) std::ofstream(last, std::ios::trunc) << input;
      bool parsed = false;
      const absl::Status s =
          CheckReader(r.read, input, r.name, r.prefix, &parsed);
      ASSERT_THAT(s, IsOk()) << s.message() << "\ninput:\n"
                             << input.substr(0, 2000);
      (parsed ? accepted : rejected)++;
    }
    std::printf(
        "%-10s %6lld accepted %6lld refused  %.2f s\n", r.name,
        static_cast<long long>(accepted), static_cast<long long>(rejected),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
    // Both outcomes occur, so the mutations reach the error paths and the
    // happy path.
    EXPECT_GT(accepted, mutants / 100) << r.name;
    EXPECT_GT(rejected, mutants / 20) << r.name;
  }
}

}  // namespace
}  // namespace rankmap::topology::fuzz
