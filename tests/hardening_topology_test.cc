// The third hardening round of the topology readers: hostile files that once
// crashed rankmap, hung it, exhausted the machine, gave a wrong answer or
// leaked a host name into hostfiles and paths, each run through the real
// `rankmap` command under a 2 GiB address-space limit. Each must end by
// itself (not crash, not hang: tests/limited_run.h): exit 2 and one line
// naming the file and line (or exit 0 and a right tree). (The limit breaks
// AddressSanitizer, so no ASan run.)
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/limited_run.h"

namespace rankmap {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string rankmap_path;  // argv[1]

std::string Tmp(const std::string& name) {
  std::string dir = ::testing::TempDir();
  if (dir.back() != '/') dir += '/';
  return dir + name;
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = Tmp(name);
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

std::string Fifo(const std::string& name) {
  const std::string path = Tmp(name);
  unlink(path.c_str());
  EXPECT_EQ(mkfifo(path.c_str(), 0600), 0) << path;
  return path;
}

LimitedRun Topology(const std::string& name, std::vector<std::string> extra) {
  std::vector<std::string> args = {"topology", "--topology"};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunLimited(rankmap_path, name, args);
}

// Ended by itself (no hang, no signal), within memory.
void ExpectAnswer(const LimitedRun& r) {
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_FALSE(r.hung) << "no answer: killed after " << kHangSeconds << " s";
  EXPECT_LT(r.max_rss_kb * 1024, kRunLimitBytes);
}

// Exit 2 and one line holding `reason`, no output.
void ExpectRefusal(const LimitedRun& r, const std::string& reason) {
  ExpectAnswer(r);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr(reason));
  EXPECT_EQ(r.out, "");
}

std::string Platform(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body +
         "\n</platform>\n";
}

std::string Cluster(const std::string& attrs) {
  return Platform("<cluster id=\"c\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" " +
                  attrs + "/>");
}

std::string Ones(int n) {
  std::string s = "1";
  for (int i = 1; i < n; ++i) s += ",1";
  return s;
}

// An hwloc export of one PU whose Machine holds `inside` (text or elements)
// and whose DOCTYPE is `doctype`.
std::string HwlocXml(const std::string& doctype, const std::string& inside) {
  return "<?xml version=\"1.0\"?>\n" + doctype +
         "\n<topology><object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\" "
         "complete_cpuset=\"0x1\">" +
         inside +
         "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" "
         "complete_cpuset=\"0x1\"/></object></topology>\n";
}

std::string SlurmChain(int n) {
  std::string s = "SwitchName=s0 Nodes=tux0\n";
  for (int i = 1; i < n; ++i)
    s += "SwitchName=s" + std::to_string(i) + " Switches=s" +
         std::to_string(i - 1) + "\n";
  return s;
}

TEST(TopologyHardening, CrashesAreRefusals) {
  // 300,000 FAT_TREE levels nested the reader's nodes (and their destructor)
  // 300,000 deep.
  ExpectRefusal(
      Topology(
          "fat-tree-300000",
          {Write("deep.xml",
                 Cluster("prefix=\"n\" suffix=\"\" radical=\"0\" "
                         "topology=\"FAT_TREE\" topo_parameters=\"300000;" +
                         Ones(300000) + ";" + Ones(300000) + ";" +
                         Ones(300000) + "\"")),
           "--format", "json"}),
      "deep.xml:3: <cluster id='c'>: attribute topo_parameters: a fat tree of "
      "300000 levels; rankmap reads at most 256");
  // A declared entity referenced in element content or in an attribute
  // crashed hwloc's libxml reader: through --topology, a network spec's node
  // line and --node.
  const std::string ent = Write(
      "ent.xml", HwlocXml("<!DOCTYPE topology [ <!ENTITY a \"x\"> ]>", "&a;"));
  const std::string declared = "ent.xml:2: a DOCTYPE with declarations";
  ExpectRefusal(Topology("entity-topology", {ent}), declared);
  ExpectRefusal(
      Topology("entity-network",
               {Write("ent.net", "network\ncluster a\nnode n0 ent.xml\n")}),
      "ent.net:3: node 'ent.xml': " + ent + ":2: a DOCTYPE with declarations");
  const std::string conf = Write("s.conf", "SwitchName=s0 Nodes=tux[0-1]\n");
  ExpectRefusal(Topology("entity-node", {conf, "--node", ent}),
                "s.conf: host 'tux0': " + ent + ":2: a DOCTYPE");
  ExpectRefusal(
      Topology(
          "entity-attribute",
          {Write("attr.xml",
                 HwlocXml("", "<info name=\"HostName\" value=\"&h;\"/>"))}),
      "attr.xml:3: entity reference '&h;'");
}

TEST(TopologyHardening, FifosAreNotWaitedOn) {
  const std::string fifo = Fifo("node.xml");
  ExpectRefusal(
      Topology("fifo-network",
               {Write("fifo.net", "network\ncluster a\nnode n0 node.xml\n")}),
      "fifo.net:3: node 'node.xml': " + fifo + ": not a regular file");
  ExpectRefusal(Topology("fifo-topology", {fifo}),
                fifo + ": not a regular file");
  ExpectRefusal(
      Topology("fifo-node",
               {Write("f.conf", "SwitchName=s0 Nodes=tux0\n"), "--node", fifo}),
      "f.conf: host 'tux0': " + fifo + ": not a regular file");
  const std::string dir = Tmp("exports");
  mkdir(dir.c_str(), 0755);
  Fifo("exports/tux0.xml");
  ExpectRefusal(
      Topology("fifo-node-dir",
               {Write("d.conf", "SwitchName=s0 Nodes=tux0\n"), "--node", dir}),
      "d.conf: host 'tux0': no hwloc export " + dir + "/tux0.xml");
}

TEST(TopologyHardening, SizesCountNamesAndCores) {
  // 64 hosts of a million cores: 16 GiB.
  ExpectRefusal(
      Topology(
          "simgrid-million-cores",
          {Write("cores.xml", Cluster("prefix=\"n\" suffix=\"\" "
                                      "radical=\"0-63\" core=\"1048576\"")),
           "--format", "json"}),
      "cores.xml:3: <cluster id='c'>: platform of 67108864 leaves (67108929 "
      "nodes) needs about 16.0 GiB, above the memory budget");
  ExpectRefusal(
      Topology(
          "simgrid-long-prefix",
          {Write("prefix.xml", Cluster("prefix=\"" + std::string(4000, 'p') +
                                       "\" suffix=\"\" radical=\"0-99999\"")),
           "--format", "json"}),
      "prefix.xml:3: <cluster id='c'>: host names prefix + radical + suffix "
      "of up to 4005 characters: a host name has at most 253");
  ExpectRefusal(
      Topology(
          "simgrid-radical-all",
          {Write("all.xml", Cluster("prefix=\"n\" suffix=\"\" "
                                    "radical=\"0-9223372036854775807\""))}),
      "all.xml:3: <cluster id='c'>: attribute radical: more than 67108864 "
      "hosts");
  // The last radical once wrapped around and counted forever.
  const LimitedRun last = Topology(
      "simgrid-radical-last",
      {Write("last.xml",
             Cluster("prefix=\"n\" suffix=\"\" "
                     "radical=\"9223372036854775806-9223372036854775807\"")),
       "--format", "json"});
  ExpectAnswer(last);
  EXPECT_EQ(last.exit_code, 0) << last.err;
  EXPECT_THAT(last.out, HasSubstr("\"num_leaves\": 2,"));
  EXPECT_THAT(last.out, HasSubstr("\"host\": \"n9223372036854775807\""));
  // 350,000 nodes of 16 leaves fit the budget as nodes (1.4 GiB), not with
  // the 231-character names each of their 17 tree nodes holds (1.4 GB more).
  const std::string name = std::string(60, 'a') + "." + std::string(60, 'b') +
                           "." + std::string(60, 'c') + "." +
                           std::string(41, 'd');
  ExpectRefusal(
      Topology("network-long-names",
               {Write("names.net", "network\ncluster " + name +
                                       "\n350000 x tleaf 1 16 1\n")}),
      "names.net:3: network of 5600000 leaves (5950002 nodes) needs about "
      "2.7 GiB, above the memory budget");
  // 8 lines of 4M hosts: each list was capped, the file was not.
  std::string lists;
  for (int i = 0; i < 8; ++i)
    lists += "SwitchName=s" + std::to_string(i) + " Nodes=t" +
             std::to_string(i) + "x[0-4194303]\n";
  ExpectRefusal(Topology("slurm-8-lists",
                         {Write("lists.conf", lists), "--node", "core:1"}),
                "lists.conf:2: Nodes=: with the lines above, the file's "
                "hostlists name more than 4194304 hosts and switches (the most "
                "rankmap reads from one file)");
}

TEST(TopologyHardening, ChainsAreRefusedInLinearTime) {
  // 200,000 lines: about 50 s, then an infinite cost.
  ExpectRefusal(
      Topology("slurm-chain-200000",
               {Write("chain.conf", SlurmChain(200000)), "--node", "core:1"}),
      "chain.conf:1: switch 's0' has 199999 switches above it: "
      "rankmap reads Switches= chains of at most 256 switches");
  std::string ib = "Ca 1 \"H-1\" # \"n1 HCA-1\"\n[1] \"S-0\"[1]\n";
  for (int i = 0; i < 20000; ++i) {
    ib += "Switch 3 \"S-" + std::to_string(i) + "\" # \"sw\"\n";
    if (i == 0) ib += "[1] \"H-1\"[1]\n";
    if (i > 0) ib += "[2] \"S-" + std::to_string(i - 1) + "\"[3]\n";
    if (i + 1 < 20000) ib += "[3] \"S-" + std::to_string(i + 1) + "\"[2]\n";
  }
  ExpectRefusal(
      Topology("ib-chain-20000", {Write("chain.ib", ib), "--node", "core:1"}),
      "chain.ib:771: switch \"S-256\" is 256 switch hops from the "
      "nearest host: rankmap reads fabrics of at most 256 switch "
      "levels");
}

TEST(TopologyHardening, AnswersAreRight) {
  // Slurm keys in any case; a key twice on a line dropped the first list.
  const LimitedRun lower =
      Topology("slurm-lowercase",
               {Write("lower.conf",
                      "switchname=s0 nodes=tux[0-1]\nSWITCHNAME=s1 "
                      "NODES=tux[2-3]\nSwitchName=top switches=s[0-1]\n"),
                "--node", "core:2", "--format", "json"});
  ExpectAnswer(lower);
  EXPECT_EQ(lower.exit_code, 0) << lower.err;
  EXPECT_THAT(lower.out, HasSubstr("\"num_leaves\": 8,"));
  EXPECT_THAT(lower.out, HasSubstr("\"host\": \"tux3\""));
  ExpectRefusal(
      Topology(
          "slurm-key-twice",
          {Write("twice.conf", "SwitchName=s0 Nodes=tux[0-1] nodes=tux[2-3]\n"),
           "--node", "core:2"}),
      "twice.conf:1: nodes= twice on one line (keys are "
      "case-insensitive)");
  // A platform after a long comment was read as hwloc XML.
  const LimitedRun commented = Topology(
      "simgrid-long-comment",
      {Write("commented.xml",
             "<!-- " + std::string(10000, 'x') + " -->\n" +
                 Cluster("prefix=\"h\" suffix=\"\" radical=\"0-1\" core=\"2\"")
                     .substr(22)),
       "--format", "json"});
  ExpectAnswer(commented);
  EXPECT_EQ(commented.exit_code, 0) << commented.err;
  EXPECT_THAT(commented.out, HasSubstr("\"kind\": \"cluster\""));
  EXPECT_THAT(commented.out, HasSubstr("\"host\": \"h1\""));
}

TEST(TopologyHardening, HostNamesAreChecked) {
  // A newline in a host id shifted ranks to other hosts in hostfiles.
  ExpectRefusal(
      RunLimited(
          rankmap_path, "simgrid-newline-host",
          {"map", "--topology",
           Write("nl.xml", Platform("<zone id=\"z\" routing=\"Full\">"
                                    "<host id=\"a&#10;b\" "
                                    "speed=\"1Gf\"/></zone>")),
           "--comm", Write("two.edges", "0 1 5\n"), "--format", "rankfile"}),
      "nl.xml:3: <host id='a\\nb'>: host name 'a\\nb': character 2 is not a "
      "letter");
  // Node descriptions that ssh would take for options.
  ExpectRefusal(
      Topology("ib-option-host",
               {Write("opt.ib",
                      "Ca 1 \"H-1\" # \"-oProxyCommand=x HCA-1\"\n"
                      "[1] \"S-0\"[1]\nSwitch 3 \"S-0\" # \"sw\"\n"
                      "[1] \"H-1\"[1]\n"),
                "--node", "core:1"}),
      "opt.ib:1: Ca \"H-1\" (the first word of its node description): "
      "host name '-oProxyCommand=x': character 15");
  // --node DIR read DIR/../x.xml: a valid export there is never opened.
  const std::string dir = Tmp("hosts");
  mkdir(dir.c_str(), 0755);
  Write("x.xml", HwlocXml("", ""));
  ExpectRefusal(Topology("slurm-climbing-host",
                         {Write("climb.conf", "SwitchName=s0 Nodes=../x\n"),
                          "--node", dir}),
                "climb.conf:1: Nodes=: host name '../x': empty label");
  ExpectRefusal(
      Topology("network-option-host",
               {Write("opt.net", "network\ncluster a\nnode -x core:2\n")}),
      "opt.net:3:6: node: host name '-x': a label starts or ends with '-'");
}

TEST(TopologyHardening, MessagesNameFileAndLine) {
  // A SimGrid attribute with a newline gave a two-line error.
  const LimitedRun nl = Topology(
      "simgrid-newline-value",
      {Write("value.xml", Cluster("prefix=\"n\" suffix=\"\" radical=\"0-3\" "
                                  "topology=\"TO&#10;RUS\""))});
  ExpectRefusal(nl,
                "value.xml:3: <cluster id='c'>: unknown topology "
                "'TO\\nRUS' (FLAT, FAT_TREE, DRAGONFLY)");
  // "cost inf is negative or not finite" named no file or line.
  std::string costly = SlurmChain(10);
  ExpectRefusal(Topology("slurm-infinite-cost", {Write("cost.conf", costly),
                                                 "--node", "tleaf 1 2 1e300"}),
                "cost.conf:9: switch 's8': its cost, 1e+301 (10 x the "
                "costliest host) x 10^8 (its level), is not finite");
  ExpectRefusal(
      Topology("network-infinite-cost",
               {Write("cost.net",
                      "network\ncost cluster 1e308\ncluster a\n2 x core:2\n")}),
      "cost.net:2: cost network: the default, 10 x cost cluster (1e+308), is "
      "not finite");
}

}  // namespace
}  // namespace rankmap

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: hardening_topology_test <path of rankmap>\n");
    return 2;
  }
  rankmap::rankmap_path = argv[1];
  return RUN_ALL_TESTS();
}
