#include "topology/hwloc_import.h"

#include <hwloc.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/hwloc_guard.h"

namespace rankmap::topology {
namespace {

constexpr int64_t kMaxSyntheticPus = int64_t{1} << 24;

// Owns an hwloc topology handle.
class Topo {
 public:
  Topo() { ok_ = hwloc_topology_init(&t_) == 0; }
  ~Topo() {
    if (ok_) hwloc_topology_destroy(t_);
  }
  Topo(const Topo&) = delete;
  Topo& operator=(const Topo&) = delete;
  bool ok() const { return ok_; }
  hwloc_topology_t get() const { return t_; }

 private:
  hwloc_topology_t t_ = nullptr;
  bool ok_ = false;
};

// Owns an hwloc bitmap.
class Bitmap {
 public:
  Bitmap() : b_(hwloc_bitmap_alloc()) {}
  ~Bitmap() { hwloc_bitmap_free(b_); }
  Bitmap(const Bitmap&) = delete;
  Bitmap& operator=(const Bitmap&) = delete;
  hwloc_bitmap_t get() const { return b_; }

 private:
  hwloc_bitmap_t b_;
};

struct LevelCost {
  std::string type_name;  // hwloc_obj_type_string of the named level
  double cost;
};

absl::StatusOr<std::vector<LevelCost>> ParseLevelCosts(std::string_view spec) {
  std::vector<LevelCost> out;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t end = spec.find(',', pos);
    if (end == std::string_view::npos) end = spec.size();
    std::string_view item = spec.substr(pos, end - pos);
    const size_t column = pos + 1;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/level-costs: expected name=cost at column ",
                       column, ", found '", std::string(item), "'"));
    }
    const std::string name(item.substr(0, eq));
    const std::string value(item.substr(eq + 1));
    hwloc_obj_type_t type;
    if (name.empty() ||
        hwloc_type_sscanf(name.c_str(), &type, nullptr, 0) != 0 ||
        type == HWLOC_OBJ_MISC || hwloc_obj_type_is_io(type)) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/level-costs: unknown level '", name,
                       "' at column ", column));
    }
    double cost;
    if (!absl::SimpleAtod(value, &cost) || !std::isfinite(cost) || cost < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/level-costs: level '", name, "' at column ",
                       column + eq + 1, ": cost '", value,
                       "' is not a non-negative number"));
    }
    out.push_back({hwloc_obj_type_string(type), cost});
    pos = end + 1;
  }
  return out;
}

// Splits on whitespace outside parentheses; returns (token, 1-based column)
// pairs.
std::vector<std::pair<std::string, size_t>> SyntheticTokens(
    std::string_view s) {
  std::vector<std::pair<std::string, size_t>> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    const size_t start = i;
    int paren = 0;
    while (i < s.size() &&
           (paren > 0 || !std::isspace(static_cast<unsigned char>(s[i])))) {
      if (s[i] == '(') ++paren;
      if (s[i] == ')' && paren > 0) --paren;
      ++i;
    }
    out.emplace_back(std::string(s.substr(start, i - start)), start + 1);
  }
  return out;
}

// Validates a synthetic string token by token and returns the string to give
// hwloc.
absl::StatusOr<std::string> CheckSynthetic(std::string_view s, int64_t max_pus,
                                           int64_t max_memory_bytes,
                                           int64_t max_work) {
  auto tokens = SyntheticTokens(s);
  if (tokens.empty())
    return absl::InvalidArgumentError("topology/synthetic: empty description");
  int64_t pus = 1;
  HwlocCost cost;
  cost.objects = 1;  // the machine
  bool last_is_pu = true;
  for (const auto& [tok, column] : tokens) {
    if (tok[0] == '[' || tok[0] == '(')
      continue;  // memory children and attributes: hwloc's
    const size_t colon = tok.find(':');
    std::string count = tok;
    last_is_pu = true;
    if (colon != std::string::npos) {
      const std::string name = tok.substr(0, colon);
      hwloc_obj_type_t type;
      if (name.empty() ||
          hwloc_type_sscanf(name.c_str(), &type, nullptr, 0) != 0 ||
          type == HWLOC_OBJ_MISC || hwloc_obj_type_is_io(type)) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/synthetic: unknown level '",
                         absl::CHexEscape(name), "' at column ", column));
      }
      last_is_pu = type == HWLOC_OBJ_PU;
      count = tok.substr(colon + 1);
    }
    count = count.substr(0, count.find('('));
    int64_t n = 0;
    if (!absl::SimpleAtoi(count, &n) || n < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/synthetic: level '", absl::CHexEscape(tok), "' at column ",
          column, ": count '", absl::CHexEscape(count),
          "' must be a positive integer"));
    }
    // Each of the `pus` objects above gets n children, each with n siblings.
    const int64_t level = base::SaturatingMulAdd(pus, n);
    cost.sibling_sum = base::SaturatingMulAdd(level, n, cost.sibling_sum);
    pus = level;
    if (pus > max_pus) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/synthetic: more than ", max_pus,
                       " PUs at column ", column));
    }
    cost.objects += pus;
  }
  cost.bitmap_bits = pus;
  if (!last_is_pu) cost.objects += pus;
  std::string out(s.substr(tokens[0].second - 1));
  RETURN_IF_ERROR(CheckHwlocCost(
      absl::StrCat("topology/synthetic '", absl::CHexEscape(out), "'"), cost,
      base::MemoryBudget(max_memory_bytes), max_work));
  if (!last_is_pu) out += " pu:1";
  return out;
}

// hwloc list syntax "0-3,8" (also "0-", hwloc's open range, is refused: be
// explicit).
absl::Status ParsePuList(std::string_view list, hwloc_bitmap_t set) {
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != '-') {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/allowed-pus: unexpected '", std::string(1, c),
                       "' at column ", i + 1, " of '", std::string(list), "'"));
    }
  }
  // Validate ranges ourselves so errors name the column.
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(pos, end - pos);
    const size_t dash = item.find('-');
    int64_t a = 0, b = 0;
    bool ok;
    if (dash == std::string_view::npos) {
      ok = absl::SimpleAtoi(std::string(item), &a);
      b = a;
    } else {
      ok = absl::SimpleAtoi(std::string(item.substr(0, dash)), &a) &&
           absl::SimpleAtoi(std::string(item.substr(dash + 1)), &b);
    }
    if (!ok || a < 0 || b < a || b > (int64_t{1} << 20)) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/allowed-pus: bad range '", std::string(item),
                       "' at column ", pos + 1));
    }
    hwloc_bitmap_set_range(set, static_cast<unsigned>(a), static_cast<int>(b));
    pos = end + 1;
  }
  return absl::OkStatus();
}

// Intermediate tree, built from hwloc objects before collapsing single-child
// levels.
struct Raw {
  std::vector<int32_t> parent;
  std::vector<std::vector<int32_t>> kids;
  std::vector<std::vector<std::string>> names;
  std::vector<int32_t> os_index;
  std::vector<std::vector<int32_t>> pus;  // leaves only
  std::vector<int32_t> logical;           // leaves only
  std::vector<bool> leaf;
  std::vector<bool> dead;

  int32_t Add(int32_t p, std::string name) {
    const int32_t id = static_cast<int32_t>(parent.size());
    parent.push_back(p);
    kids.emplace_back();
    names.push_back({std::move(name)});
    os_index.push_back(-1);
    pus.emplace_back();
    logical.push_back(-1);
    leaf.push_back(false);
    dead.push_back(false);
    if (p >= 0) kids[p].push_back(id);
    return id;
  }
};

void CollectNuma(hwloc_obj_t obj, std::vector<hwloc_obj_t>& out) {
  for (hwloc_obj_t m = obj->memory_first_child; m != nullptr;
       m = m->next_sibling) {
    if (m->type == HWLOC_OBJ_NUMANODE) {
      out.push_back(m);
    } else {
      CollectNuma(m, out);
    }
  }
}

bool HasCpus(hwloc_obj_t obj) {
  return obj->cpuset != nullptr && !hwloc_bitmap_iszero(obj->cpuset);
}

// Logical indexes of PUs and cores before any restriction, by PU os index:
// launchers that number CPUs logically (PRRTE rankfiles) see the whole
// machine, not our restricted copy, whose logical indexes hwloc renumbers.
struct LogicalIndexes {
  std::vector<int32_t> pu, core;  // by PU os index; -1: none

  explicit LogicalIndexes(hwloc_topology_t topo) {
    for (hwloc_obj_t pu_obj =
             hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, nullptr);
         pu_obj != nullptr;
         pu_obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu_obj)) {
      const size_t os = pu_obj->os_index;
      if (os >= (size_t{1} << 24)) continue;
      if (pu.size() <= os) {
        pu.resize(os + 1, -1);
        core.resize(os + 1, -1);
      }
      pu[os] = static_cast<int32_t>(pu_obj->logical_index);
      hwloc_obj_t c =
          hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu_obj);
      if (c != nullptr) core[os] = static_cast<int32_t>(c->logical_index);
    }
  }
  static int32_t At(const std::vector<int32_t>& v, int32_t os) {
    return os >= 0 && static_cast<size_t>(os) < v.size() ? v[os] : -1;
  }
};

void Visit(hwloc_obj_t obj, int32_t parent, LeafKind leaf_kind,
           const LogicalIndexes& logical, Raw& raw) {
  if (!HasCpus(obj)) return;
  const int32_t id = raw.Add(parent, hwloc_obj_type_string(obj->type));
  if (obj->type == HWLOC_OBJ_PU ||
      (leaf_kind == LeafKind::kCore && obj->type == HWLOC_OBJ_CORE)) {
    raw.leaf[id] = true;
    const bool pu = obj->type == HWLOC_OBJ_PU;
    raw.os_index[id] = pu ? static_cast<int32_t>(obj->os_index)
                          : hwloc_bitmap_first(obj->cpuset);
    for (int i = hwloc_bitmap_first(obj->cpuset); i >= 0;
         i = hwloc_bitmap_next(obj->cpuset, i)) {
      raw.pus[id].push_back(i);
    }
    raw.logical[id] =
        LogicalIndexes::At(pu ? logical.pu : logical.core, raw.os_index[id]);
    return;
  }
  // hwloc 2 gives a NUMA node its parent's cpuset and inserts a Group where a
  // NUMA node covers a proper subset of an object, so naming the parent is
  // enough to make NUMA nodes a level.
  std::vector<hwloc_obj_t> numas;
  CollectNuma(obj, numas);
  for (hwloc_obj_t m : numas) {
    if (HasCpus(m) && hwloc_bitmap_isequal(m->cpuset, obj->cpuset)) {
      raw.names[id].push_back(hwloc_obj_type_string(HWLOC_OBJ_NUMANODE));
      break;
    }
  }
  for (unsigned i = 0; i < obj->arity; ++i) {
    Visit(obj->children[i], id, leaf_kind, logical, raw);
  }
}

// Collapses, top-down, every depth at which all internal nodes have exactly one
// child.
void CollapseSingleChildLevels(Raw& raw) {
  for (;;) {
    std::vector<int32_t> order = {0}, depth(raw.parent.size(), 0);
    for (size_t i = 0; i < order.size(); ++i) {
      for (int32_t c : raw.kids[order[i]]) {
        depth[c] = depth[order[i]] + 1;
        order.push_back(c);
      }
    }
    const int32_t max_depth = depth[order.back()];
    int32_t target = -1;
    for (int32_t d = 0; d < max_depth && target < 0; ++d) {
      bool any = false, all_single = true;
      for (int32_t v : order) {
        if (depth[v] != d || raw.kids[v].empty()) continue;
        any = true;
        if (raw.kids[v].size() != 1) all_single = false;
      }
      if (any && all_single) target = d;
    }
    if (target < 0) return;
    for (int32_t p : order) {
      if (depth[p] != target || raw.kids[p].empty()) continue;
      const int32_t c = raw.kids[p][0];
      raw.names[p].insert(raw.names[p].end(), raw.names[c].begin(),
                          raw.names[c].end());
      raw.kids[p] = raw.kids[c];
      for (int32_t k : raw.kids[p]) raw.parent[k] = p;
      raw.leaf[p] = raw.leaf[c];
      raw.os_index[p] = raw.os_index[c];
      raw.pus[p] = std::move(raw.pus[c]);
      raw.logical[p] = raw.logical[c];
      raw.dead[c] = true;
      raw.kids[c].clear();
    }
  }
}

// Leaf speed by PU os index from hwloc's CPU kinds (hybrid CPUs: P and E
// cores): 1 + the rank of the kind's efficiency among the distinct
// efficiencies, so the least efficient kind is 1, the next 2, ... Everything is
// 1 when there is at most one kind or some kind's efficiency is unknown (kinds
// that differ only by frequency are not ranked by hwloc).
std::vector<double> CpuKindSpeeds(hwloc_topology_t topo) {
  const int nr = hwloc_cpukinds_get_nr(topo, 0);
  if (nr <= 1) return {};
  std::vector<int> efficiency(nr, -1);
  std::vector<Bitmap> sets(nr);
  for (int k = 0; k < nr; ++k) {
    if (hwloc_cpukinds_get_info(topo, k, sets[k].get(), &efficiency[k], nullptr,
                                nullptr, 0) != 0 ||
        efficiency[k] < 0) {
      return {};
    }
  }
  std::vector<int> ranked = efficiency;
  std::sort(ranked.begin(), ranked.end());
  ranked.erase(std::unique(ranked.begin(), ranked.end()), ranked.end());
  std::vector<double> speed;
  for (int k = 0; k < nr; ++k) {
    const double s =
        1 + (std::lower_bound(ranked.begin(), ranked.end(), efficiency[k]) -
             ranked.begin());
    unsigned pu;
    hwloc_bitmap_foreach_begin(pu, sets[k].get()) {
      if (pu >= speed.size()) speed.resize(pu + 1, 1.0);
      speed[pu] = s;
    }
    hwloc_bitmap_foreach_end();
  }
  return speed;
}

absl::StatusOr<Tree> Convert(hwloc_topology_t topo,
                             const HwlocImportOptions& options,
                             std::string_view source) {
  ASSIGN_OR_RETURN(std::vector<LevelCost> overrides,
                   ParseLevelCosts(options.level_costs));
  const LogicalIndexes logical(topo);
  if (!options.allowed_pus.empty()) {
    Bitmap set;
    RETURN_IF_ERROR(ParsePuList(options.allowed_pus, set.get()));
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    if (!hwloc_bitmap_isincluded(set.get(), all)) {
      Bitmap extra;
      hwloc_bitmap_andnot(extra.get(), set.get(), all);
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/allowed-pus: PU os index ", hwloc_bitmap_first(extra.get()),
          " is not in ", std::string(source)));
    }
    if (hwloc_topology_restrict(topo, set.get(), 0) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/allowed-pus: hwloc cannot restrict ", std::string(source),
          " to '", options.allowed_pus, "': ", std::strerror(errno)));
    }
  }
  hwloc_obj_t root = hwloc_get_root_obj(topo);
  if (root == nullptr || !HasCpus(root)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/hwloc: ", std::string(source), " has no usable PU"));
  }
  // Real machines (this one, most XML exports) name their host; synthetic
  // descriptions do not.
  const char* host = hwloc_obj_get_info_by_name(root, "HostName");
  const std::vector<double> pu_speed = CpuKindSpeeds(topo);
  Raw raw;
  Visit(root, -1, options.leaf, logical, raw);
  CollapseSingleChildLevels(raw);
  // Height and per-node depth of the collapsed tree.
  std::vector<int32_t> order = {0}, depth(raw.parent.size(), 0);
  int32_t height = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    for (int32_t c : raw.kids[order[i]]) {
      depth[c] = depth[order[i]] + 1;
      height = std::max(height, depth[c]);
      order.push_back(c);
    }
  }
  TreeBuilder b;
  std::vector<NodeId> bid(raw.parent.size(), -1);
  for (int32_t v : order) {
    double cost = 0;
    if (!raw.leaf[v]) {
      cost = (std::pow(10.0, height - depth[v]) - 1) / 9;
      for (const LevelCost& o : overrides) {
        bool match = false;
        for (const std::string& n : raw.names[v])
          match = match || n == o.type_name;
        if (match) {
          cost = o.cost;
          break;
        }
      }
    }
    const std::string kind = absl::StrJoin(raw.names[v], "+");
    bid[v] = raw.parent[v] < 0 ? b.AddRoot(kind, cost)
                               : b.AddChild(bid[raw.parent[v]], kind, cost);
    if (raw.leaf[v]) {
      b.SetOsIndex(bid[v], raw.os_index[v]);
      if (raw.pus[v].size() > 1) b.SetPus(bid[v], std::move(raw.pus[v]));
      b.SetLogicalIndex(bid[v], raw.logical[v]);
      if (host != nullptr) b.SetHost(bid[v], host);
      // A core's hardware threads share its kind.
      const int32_t pu = raw.os_index[v];
      if (pu >= 0 && pu < static_cast<int32_t>(pu_speed.size()))
        b.SetSpeed(bid[v], pu_speed[pu]);
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<Tree> LoadAndConvert(Topo& topo,
                                    const HwlocImportOptions& options,
                                    std::string_view source) {
  if (hwloc_topology_load(topo.get()) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/hwloc: hwloc refuses ", std::string(source),
                     ": ", std::strerror(errno)));
  }
  return Convert(topo.get(), options, source);
}

}  // namespace

absl::StatusOr<Tree> TreeFromThisMachine(const HwlocImportOptions& options) {
  Topo topo;
  if (!topo.ok())
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  return LoadAndConvert(topo, options, "this machine");
}

absl::StatusOr<Tree> TreeFromSynthetic(std::string_view synthetic,
                                       const HwlocImportOptions& options) {
  ASSIGN_OR_RETURN(
      std::string checked,
      CheckSynthetic(synthetic,
                     std::min(options.max_synthetic_pus, kMaxSyntheticPus),
                     options.max_memory_bytes, options.max_hwloc_work));
  Topo topo;
  if (!topo.ok())
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  if (hwloc_topology_set_synthetic(topo.get(), checked.c_str()) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/synthetic: hwloc refuses '",
                     absl::CHexEscape(std::string(synthetic)), "'"));
  }
  return LoadAndConvert(
      topo, options,
      absl::StrCat("synthetic '", absl::CHexEscape(std::string(synthetic)),
                   "'"));
}

absl::StatusOr<Tree> TreeFromXmlBuffer(std::string_view xml,
                                       std::string_view source,
                                       const HwlocImportOptions& options) {
  ASSIGN_OR_RETURN(const HwlocCost cost, CheckHwlocXml(xml, source));
  RETURN_IF_ERROR(CheckHwlocCost(source, cost,
                                 base::MemoryBudget(options.max_memory_bytes),
                                 options.max_hwloc_work));
  const std::string text(xml);
  Topo topo;
  if (!topo.ok())
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  if (text.size() > (size_t{1} << 30) ||
      hwloc_topology_set_xmlbuffer(topo.get(), text.c_str(),
                                   static_cast<int>(text.size() + 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source), ": hwloc refuses this XML topology"));
  }
  if (hwloc_topology_load(topo.get()) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source), ": hwloc refuses this XML topology"));
  }
  return Convert(topo.get(), options, source);
}

absl::StatusOr<Tree> TreeFromXmlFile(const std::string& path,
                                     const HwlocImportOptions& options) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "hwloc XML file"));
  return TreeFromXmlBuffer(text, path, options);
}

absl::StatusOr<std::string> SyntheticToXml(std::string_view synthetic) {
  ASSIGN_OR_RETURN(
      std::string checked,
      CheckSynthetic(synthetic, kMaxSyntheticPus, 0, kMaxHwlocWork));
  Topo topo;
  if (!topo.ok())
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  if (hwloc_topology_set_synthetic(topo.get(), checked.c_str()) != 0 ||
      hwloc_topology_load(topo.get()) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/synthetic: hwloc refuses '",
                     absl::CHexEscape(std::string(synthetic)), "'"));
  }
  char* buf = nullptr;
  int len = 0;
  if (hwloc_topology_export_xmlbuffer(topo.get(), &buf, &len, 0) != 0) {
    return absl::InternalError("topology/hwloc: XML export failed");
  }
  std::string out(buf, len > 0 ? static_cast<size_t>(len - 1) : 0);
  hwloc_free_xmlbuffer(topo.get(), buf);
  return out;
}

}  // namespace rankmap::topology
