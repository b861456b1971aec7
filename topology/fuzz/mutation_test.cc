// Seeded mutation testing of every topology reader (tleaf, hwloc synthetic
// strings, network specs, hwloc XML): valid inputs are mutated thousands of
// times (byte edits, tokens swapped for hostile counts, attributes of XML
// objects dropped or given hostile values, lines duplicated, swapped or
// removed, truncation); each result must be a valid tree or a one-line error
// naming the input (reader_check.h), within the fuzz budgets. Runs in CI, also
// under ASan/UBSan. Every input that once crashed, hung or exhausted memory is
// a seed of its own below.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "topology/fuzz/reader_check.h"

namespace rankmap::topology::fuzz {
namespace {

// CI runs the fixed seed and counts below; a longer soak can be asked for with
// --test_env=RANKMAP_MUTANTS=<count per reader>
// --test_env=RANKMAP_MUTATION_SEED=<seed>.
int64_t EnvOr(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoll(value) : fallback;
}

const char* const kHostileTokens[] = {"0",
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
                                      "999999999999999999999"};

const char kAlphabet[] = "0123456789 \n:.-xtleafpucorenodnetwk#";

std::string Token(std::string_view s, size_t pos, size_t* begin, size_t* end) {
  size_t b = pos, e = pos;
  while (b > 0 && !std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e]))) ++e;
  *begin = b;
  *end = e;
  return std::string(s.substr(b, e - b));
}

// Line-level edits shared by every format.
void EditLines(std::string& s, std::mt19937_64& rng) {
  std::vector<std::string> lines;
  std::stringstream in(s);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (lines.empty()) return;
  const size_t i = rng() % lines.size(), j = rng() % lines.size();
  switch (rng() % 3) {
    case 0:
      lines.insert(lines.begin() + i, lines[j]);
      break;
    case 1:
      lines.erase(lines.begin() + i);
      break;
    default:
      std::swap(lines[i], lines[j]);
      break;
  }
  s.clear();
  for (const std::string& l : lines) s += l + "\n";
}

std::string Mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const size_t pos = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 6) {
      case 0:
        if (!s.empty()) s[pos] = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
        break;
      case 1:
        if (!s.empty()) s[pos] = static_cast<char>(rng() % 256);
        break;
      case 2:
        s.erase(pos, 1 + rng() % 6);
        break;
      case 3: {
        size_t b, t;
        Token(s, pos, &b, &t);
        std::string hostile = kHostileTokens[rng() % std::size(kHostileTokens)];
        // Keep "name:count" shapes: hostile counts after a colon too.
        const size_t colon = s.find(':', b);
        if (colon != std::string::npos && colon < t && rng() % 2 == 0)
          b = colon + 1;
        s.replace(b, t - b, hostile);
        break;
      }
      case 4:
        EditLines(s, rng);
        break;
      default:
        s.resize(pos);
        break;
    }
  }
  return s;
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

// Attribute-level edits of hwloc XML, then the generic ones now and then.
std::string MutateXml(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const std::string attr = std::string(" ") +
                             kXmlAttributes[rng() % std::size(kXmlAttributes)] +
                             "=\"";
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
                    kXmlValues[rng() % std::size(kXmlValues)]);
        }
        break;
      }
      case 2:
        EditLines(s, rng);
        break;
      default:
        s = Mutate(std::move(s), rng);
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
  bool xml = false;
};

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
       true},
  };
}

TEST(TopologyMutationTest, EveryReaderAcceptsValidTreesOrReportsOneLine) {
  const int64_t scale = EnvOr("RANKMAP_MUTANTS", 0);
  const char* last = std::getenv("RANKMAP_MUTATION_LAST");
  for (const Reader& r : Readers()) {
    SCOPED_TRACE(r.name);
    std::mt19937_64 rng(EnvOr("RANKMAP_MUTATION_SEED", 20261124));
    int64_t accepted = 0, rejected = 0;
    for (const std::string& seed : r.seeds) {
      ASSERT_FALSE(seed.empty());
      bool parsed = false;
      ASSERT_TRUE(CheckReader(r.read, seed, r.name, r.prefix, &parsed).ok())
          << seed.substr(0, 200);
      (parsed ? accepted : rejected)++;
    }
    const int64_t mutants = scale > 0 ? scale : r.mutants;
    for (int64_t i = 0; i < mutants; ++i) {
      const std::string& seed = r.seeds[i % r.seeds.size()];
      const std::string input =
          r.xml ? MutateXml(seed, rng) : Mutate(seed, rng);
      if (last != nullptr) std::ofstream(last, std::ios::trunc) << input;
      bool parsed = false;
      const absl::Status s =
          CheckReader(r.read, input, r.name, r.prefix, &parsed);
      ASSERT_TRUE(s.ok()) << s.message() << "\ninput:\n"
                          << input.substr(0, 2000);
      (parsed ? accepted : rejected)++;
    }
    // Both outcomes occur, so the mutations reach the error paths and the
    // happy path.
    EXPECT_GT(accepted, mutants / 100) << r.name;
    EXPECT_GT(rejected, mutants / 20) << r.name;
  }
}

}  // namespace
}  // namespace rankmap::topology::fuzz
