#include "models/channel_params.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "models/level_classes.h"

namespace rankmap::models {
using base::LineError;
using topology::NodeId;

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Every model agreeing on one message: T(m) = a + b m; `network` channels
// copy once (tau-Lop), memory channels twice.
ChannelParams AlphaBetaParams(double a, double b, bool network) {
  ChannelParams p;
  p.hockney = {a, b};
  // LMO: alpha and beta split between network and processors so that
  // T(m) = a + b m.
  p.lmo = {0.5 * a, 0.25 * a, 0.1 * b, 0.25 * a, 0.1 * b, 1.0 / (0.8 * b)};
  // HLogGP: T(m) = a + (m - 1) b.
  p.hloggp = {0.5 * a, 0.25 * a, 0.25 * a, 0.0, b};
  // tau-Lop: memory channels copy twice (in and out of a shared buffer), the
  // network once; both give T(m, 1) = a + b m.
  if (network) {
    p.taulop = {0.2 * a, 0.0, 1, {TauLopPoint{0.8 * a, b}}};
  } else {
    p.taulop = {0.2 * a, 0.0, 2, {TauLopPoint{0.4 * a, 0.5 * b}}};
  }
  return p;
}

ChannelParams ClassParams(DefaultGroup g) {
  static constexpr double kAlpha[] = {2e-7, 3e-7, 5e-7, 1.5e-6};
  static constexpr double kBeta[] = {5e-11, 1e-10, 2e-10, 8e-10};
  return AlphaBetaParams(kAlpha[static_cast<int>(g)],
                         kBeta[static_cast<int>(g)],
                         g == DefaultGroup::kNetwork);
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE) return false;
  *out = v;
  return true;
}

// Keys of each model (tau-Lop's Lk handled separately).
bool KnownKey(Model m, const std::string& k) {
  static const std::vector<std::string> kKeys[] = {
      {"alpha", "beta"},
      {"L", "Cs", "ts", "Cr", "tr", "C", "t", "rate"},
      {"L", "os", "or", "g", "G"},
      {"o", "o_per_byte", "transfers"},
  };
  const auto& keys = kKeys[static_cast<int>(m)];
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

// Bounds beyond which a file describes no network (eval printed "inf s" for
// alpha=1e300): a per-message term of at most kMaxSeconds (11 days), a
// per-byte term of at most kMaxSecondsPerByte (a byte per 17 minutes), a
// rate of at least 1 byte/s. Volumes are bounded only by a double, so a
// prediction is checked to be finite as well (cli/evaluation.h).
constexpr double kMaxSeconds = 1e6;
constexpr double kMaxSecondsPerByte = 1e3;

absl::Status CheckParamRange(std::string_view source, int64_t line,
                             const std::string& key, int table_index,
                             const std::vector<double>& values) {
  if (key == "transfers") return absl::OkStatus();
  if (key == "rate") {
    if (values[0] > 0 && values[0] < 1) {
      return LineError(
          source, line,
          absl::StrCat("field 'rate': ", values[0], " is below 1 byte/s"));
    }
    return absl::OkStatus();
  }
  const bool per_byte_key = key == "beta" || key == "ts" || key == "tr" ||
                            key == "t" || key == "G" || key == "o_per_byte";
  for (size_t i = 0; i < values.size(); ++i) {
    const bool per_byte = table_index > 0 ? i == 1 : per_byte_key;
    const double bound = per_byte ? kMaxSecondsPerByte : kMaxSeconds;
    if (values[i] > bound) {
      return LineError(
          source, line,
          absl::StrCat("field '", key, "': ", values[i], " is above ", bound,
                       per_byte ? " s per byte" : " s",
                       " (no network is that slow)"));
    }
  }
  return absl::OkStatus();
}

// Returns the table index k of "Lk", or 0 if `key` is not of that form.
int TableIndex(const std::string& key) {
  if (key.size() < 2 || key[0] != 'L') return 0;
  int k = 0;
  for (size_t i = 1; i < key.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(key[i])) || k > 100000)
      return 0;
    k = 10 * k + (key[i] - '0');
  }
  return k;
}

void Apply(const ParamRule& rule, ChannelParams& c) {
  for (const auto& [key, v] : rule.values) {
    const double x = v[0];
    switch (rule.model) {
      case Model::kHockney:
        if (key == "alpha") c.hockney.alpha = x;
        if (key == "beta") c.hockney.beta = x;
        break;
      case Model::kLmo:
        if (key == "L") c.lmo.L = x;
        if (key == "Cs" || key == "C") c.lmo.Cs = x;
        if (key == "Cr" || key == "C") c.lmo.Cr = x;
        if (key == "ts" || key == "t") c.lmo.ts = x;
        if (key == "tr" || key == "t") c.lmo.tr = x;
        if (key == "rate") c.lmo.rate = x;
        break;
      case Model::kHLogGP:
        if (key == "L") c.hloggp.L = x;
        if (key == "os") c.hloggp.os = x;
        if (key == "or") c.hloggp.orecv = x;
        if (key == "g") c.hloggp.g = x;
        if (key == "G") c.hloggp.G = x;
        break;
      case Model::kTauLop:
        if (key == "o") c.taulop.o = x;
        if (key == "o_per_byte") c.taulop.o_per_byte = x;
        if (key == "transfers") c.taulop.transfers = static_cast<int32_t>(x);
        break;
    }
  }
}

// Table entries of a tau-Lop rule, in increasing k; fails on a hole.
absl::Status ApplyTable(const ParamRule& rule, ChannelParams& c) {
  std::vector<std::pair<int, TauLopPoint>> entries;
  for (const auto& [key, v] : rule.values) {
    if (const int k = TableIndex(key); k > 0)
      entries.push_back({k, {v[0], v[1]}});
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [k, point] : entries) {
    auto& table = c.taulop.table;
    if (k > static_cast<int>(table.size()) + 1) {
      return LineError(
          rule.source, rule.line,
          absl::StrCat("field 'L", k, "': tau-Lop table has no entry L",
                       table.size() + 1, " before it"));
    }
    if (k == static_cast<int>(table.size()) + 1) {
      table.push_back(point);
    } else {
      table[k - 1] = point;
    }
  }
  return absl::OkStatus();
}

// ---- proc / pair rules (processor_params.h) ----

// Tokens before the model in a rule starting with `keyword` (0: unknown).
size_t PointRuleHead(const std::string& keyword) {
  if (keyword == "level" || keyword == "proc") return 2;
  if (keyword == "pair") return 3;
  return 0;
}

const char* PointRuleUsage(const std::string& keyword) {
  if (keyword == "proc") return "proc <processor> <model> key=value ...";
  if (keyword == "pair") {
    return "pair <processor> <processor> <model> key=value ...";
  }
  return "level <selector> <model> key=value ...";
}

bool KnownPointKey(const std::string& keyword, Model m, const std::string& k) {
  if (keyword == "proc") {
    return m == Model::kLmo ? k == "C" || k == "t"
                            : k == "os" || k == "or" || k == "g";
  }
  return m == Model::kLmo ? k == "L" || k == "rate" : k == "L" || k == "G";
}

absl::Status ApplyPointRule(const ParamRule& rule, const topology::Tree& tree,
                            PointParams& points) {
  std::vector<std::vector<LeafId>> sets;
  for (size_t i = 0; i < rule.processors.size(); ++i) {
    auto leaves = ResolveProcessors(rule.processors[i], tree);
    if (!leaves.ok()) {
      return LineError(
          rule.source, rule.line,
          absl::StrCat("field 'processor': ", leaves.status().message()));
    }
    sets.push_back(*std::move(leaves));
  }
  auto value = [&rule](const char* key) -> std::optional<double> {
    std::optional<double> v;
    for (const auto& [k, x] : rule.values) {
      if (k == key) v = x[0];
    }
    return v;
  };
  auto set = [](std::optional<double>& field, std::optional<double> v) {
    if (v.has_value()) field = v;
  };
  const bool lmo = rule.model == Model::kLmo;
  if (rule.keyword == "proc") {
    for (LeafId l : sets[0]) {
      ProcessorParams& p = points.processor(l);
      if (lmo) {
        set(p.lmo_c, value("C"));
        set(p.lmo_t, value("t"));
      } else {
        set(p.hloggp_os, value("os"));
        set(p.hloggp_or, value("or"));
        set(p.hloggp_g, value("g"));
      }
    }
    return absl::OkStatus();
  }
  for (LeafId a : sets[0]) {
    for (LeafId b : sets[1]) {
      if (a == b) {
        return LineError(
            rule.source, rule.line,
            absl::StrCat("field 'processor': leaf ", a, " paired with itself"));
      }
      PairParams& q = points.pair(a, b);
      if (lmo) {
        set(q.lmo_l, value("L"));
        set(q.lmo_rate, value("rate"));
      } else {
        set(q.hloggp_l, value("L"));
        set(q.hloggp_G, value("G"));
      }
    }
  }
  return absl::OkStatus();
}

void AddValue(std::string& out, const char* key, std::optional<double> v) {
  if (v.has_value()) {
    absl::StrAppend(&out, " ", key, "=", absl::StrFormat("%.17g", *v));
  }
}

}  // namespace

absl::StatusOr<Model> ParseModel(std::string_view name) {
  const std::string n = Lower(name);
  if (n == "hockney") return Model::kHockney;
  if (n == "lmo") return Model::kLmo;
  if (n == "hloggp") return Model::kHLogGP;
  if (n == "taulop" || n == "tau-lop") return Model::kTauLop;
  return absl::InvalidArgumentError(
      absl::StrCat("cost_model: unknown model '", std::string(name),
                   "' (hockney, lmo, hloggp, taulop)"));
}

const char* ModelName(Model model) {
  switch (model) {
    case Model::kHockney:
      return "hockney";
    case Model::kLmo:
      return "lmo";
    case Model::kHLogGP:
      return "hloggp";
    case Model::kTauLop:
      return "taulop";
  }
  return "?";
}

ModelParams DefaultModelParams(const topology::Tree& tree) {
  ModelParams p;
  for (DefaultGroup g : ClassifyLevels(tree).group)
    p.levels.push_back(ClassParams(g));
  p.self = ClassParams(DefaultGroup::kCache);
  if (!tree.has_links()) return p;
  // Links: each depth's channel is the route of its first node (by id).
  std::vector<bool> done(p.levels.size(), false);
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    const int32_t d = tree.depth(v);
    if (d >= static_cast<int32_t>(done.size()) || done[d]) continue;
    done[d] = true;
    const topology::Route r = tree.LcaRoute(v);
    if (std::isinf(r.bandwidth)) continue;
    p.levels[d] =
        AlphaBetaParams(r.latency, 1.0 / r.bandwidth, tree.HostOf(v) < 0);
  }
  const NodeId host = tree.num_leaves() > 0 ? tree.HostOf(0) : -1;
  if (host >= 0) {
    const topology::Link& lo = tree.loopback(host);
    p.self = AlphaBetaParams(lo.latency, 1.0 / lo.bandwidth, false);
  }
  return p;
}

absl::StatusOr<std::vector<ParamRule>> ParseModelParams(
    std::string_view text, std::string_view source) {
  std::vector<ParamRule> rules;
  for (const base::Line& l : base::SplitLines(text)) {
    const int32_t line = l.number;
    std::vector<std::string> w;
    for (const base::Token& t : l.tokens) w.push_back(t.text);
    ParamRule rule;
    rule.source = std::string(source);
    rule.line = line;
    rule.keyword = w[0];
    // Tokens before the model: the keyword and its selectors.
    const size_t head = PointRuleHead(w[0]);
    if (head == 0) {
      return LineError(
          source, line,
          absl::StrCat("expected 'level', 'proc' or 'pair', found '", w[0],
                       "'"));
    }
    if (w.size() < head + 1) {
      return LineError(source, line,
                       absl::StrCat("expected '", PointRuleUsage(w[0]), "'"));
    }
    if (w[0] == "level") {
      rule.selector = w[1];
    } else {
      rule.processors.assign(w.begin() + 1, w.begin() + head);
    }
    auto model = ParseModel(w[head]);
    if (!model.ok()) {
      return LineError(source, line,
                       absl::StrCat("field 'model': unknown model '", w[head],
                                    "' (hockney, lmo, hloggp, taulop)"));
    }
    rule.model = *model;
    if (w[0] != "level" && rule.model != Model::kLmo &&
        rule.model != Model::kHLogGP) {
      return LineError(
          source, line,
          absl::StrCat("field 'model': ", w[0],
                       " rules take lmo or hloggp, not ", w[head]));
    }
    for (size_t i = head + 1; i < w.size(); ++i) {
      const size_t eq = w[i].find('=');
      if (eq == std::string::npos || eq == 0) {
        return LineError(
            source, line,
            absl::StrCat("field '", w[i], "': expected key=value"));
      }
      const std::string key = w[i].substr(0, eq);
      const std::string value = w[i].substr(eq + 1);
      const int k = rule.model == Model::kTauLop ? TableIndex(key) : 0;
      if (rule.keyword != "level") {
        if (!KnownPointKey(rule.keyword, rule.model, key)) {
          return LineError(
              source, line,
              absl::StrCat("field '", key, "': unknown ", ModelName(rule.model),
                           " key for a ", rule.keyword, " rule"));
        }
      } else if (k == 0 && !KnownKey(rule.model, key)) {
        return LineError(source, line,
                         absl::StrCat("field '", key, "': unknown ",
                                      ModelName(rule.model), " key"));
      }
      if (k > 1024) {
        return LineError(
            source, line,
            absl::StrCat("field '", key, "': table index outside [1, 1024]"));
      }
      std::vector<double> values;
      std::string_view rest = value;
      while (true) {
        const size_t comma = rest.find(',');
        double x = 0;
        const std::string part(rest.substr(0, comma));
        if (!ParseDouble(part, &x) || !std::isfinite(x) || x < 0) {
          return LineError(
              source, line,
              absl::StrCat("field '", key, "': '", part,
                           "' is not a finite non-negative number"));
        }
        values.push_back(x);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
      const size_t want = k > 0 ? 2 : 1;
      if (values.size() != want) {
        return LineError(
            source, line,
            absl::StrCat("field '", key, "': expected ", want,
                         want == 2 ? " values (latency,per_byte)" : " value",
                         ", found ", values.size()));
      }
      if (key == "rate" && values[0] <= 0) {
        return LineError(source, line, "field 'rate': must be > 0 bytes/s");
      }
      RETURN_IF_ERROR(CheckParamRange(source, line, key, k, values));
      if (key == "transfers" && (values[0] < 1 || values[0] > 1024 ||
                                 values[0] != std::floor(values[0]))) {
        return LineError(source, line,
                         "field 'transfers': expected an integer in [1, 1024]");
      }
      rule.values.push_back({key, std::move(values)});
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

absl::StatusOr<ModelParams> ResolveModelParams(
    const std::vector<ParamRule>& rules, const topology::Tree& tree) {
  ModelParams p = DefaultModelParams(tree);
  const LevelClasses classes = ClassifyLevels(tree);
  const int32_t height = tree.height();
  for (const ParamRule& rule : rules) {
    if (rule.keyword != "level") {
      RETURN_IF_ERROR(ApplyPointRule(rule, tree, p.points));
      continue;
    }
    // Selected depths, and whether the self channel is selected.
    std::vector<char> depth_on(height, 0);
    bool self_on = false;
    const std::string sel = Lower(rule.selector);
    bool is_number =
        !sel.empty() && std::all_of(sel.begin(), sel.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        });
    if (sel == "*" || sel == "all") {
      std::fill(depth_on.begin(), depth_on.end(), 1);
      self_on = true;
    } else if (sel == "self") {
      self_on = true;
    } else if (sel == "internode" || sel == "intranode") {
      const bool want_network = sel == "internode";
      for (int32_t d = 0; d < height; ++d) {
        depth_on[d] =
            (classes.group[d] == DefaultGroup::kNetwork) == want_network;
      }
      self_on = !want_network;
    } else if (is_number) {
      const long d = sel.size() > 9 ? -1 : std::atol(sel.c_str());
      if (d < 0 || d >= height) {
        return LineError(
            rule.source, rule.line,
            absl::StrCat("field 'selector': depth ", rule.selector,
                         " outside [0, ", height, ") of this tree"));
      }
      depth_on[d] = 1;
    } else {
      depth_on = SelectDepthsByName(tree, classes, rule.selector);
      if (std::find(depth_on.begin(), depth_on.end(), 1) == depth_on.end()) {
        return LineError(
            rule.source, rule.line,
            absl::StrCat(
                "field 'selector': no level of kind or class '", rule.selector,
                "' in this tree (levels: ", DescribeLevels(tree), ")"));
      }
    }
    for (int32_t d = 0; d <= height; ++d) {
      const bool on = d < height ? depth_on[d] : self_on;
      if (!on) continue;
      ChannelParams& c = d < height ? p.levels[d] : p.self;
      Apply(rule, c);
      if (rule.model == Model::kTauLop) RETURN_IF_ERROR(ApplyTable(rule, c));
    }
  }
  return p;
}

absl::StatusOr<ModelParams> ReadModelParams(const std::string& path,
                                            const topology::Tree& tree) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "model parameter file"));
  ASSIGN_OR_RETURN(std::vector<ParamRule> rules, ParseModelParams(text, path));
  return ResolveModelParams(rules, tree);
}

std::string FormatParamRule(std::string_view selector, Model model,
                            const ChannelParams& c) {
  std::string out =
      absl::StrCat("level ", std::string(selector), " ", ModelName(model));
  auto add = [&out](const char* key, double v) {
    absl::StrAppend(&out, " ", key, "=", absl::StrFormat("%.17g", v));
  };
  switch (model) {
    case Model::kHockney:
      add("alpha", c.hockney.alpha);
      add("beta", c.hockney.beta);
      break;
    case Model::kLmo:
      add("L", c.lmo.L);
      add("Cs", c.lmo.Cs);
      add("ts", c.lmo.ts);
      add("Cr", c.lmo.Cr);
      add("tr", c.lmo.tr);
      add("rate", c.lmo.rate);
      break;
    case Model::kHLogGP:
      add("L", c.hloggp.L);
      add("os", c.hloggp.os);
      add("or", c.hloggp.orecv);
      add("g", c.hloggp.g);
      add("G", c.hloggp.G);
      break;
    case Model::kTauLop:
      add("o", c.taulop.o);
      add("o_per_byte", c.taulop.o_per_byte);
      absl::StrAppend(&out, " transfers=", c.taulop.transfers);
      for (size_t k = 0; k < c.taulop.table.size(); ++k) {
        absl::StrAppend(
            &out, " L", k + 1, "=",
            absl::StrFormat("%.17g,%.17g", c.taulop.table[k].latency,
                            c.taulop.table[k].per_byte));
      }
      break;
  }
  return out;
}

std::string FormatProcessorRule(std::string_view processor, Model model,
                                const ProcessorParams& v) {
  std::string out =
      absl::StrCat("proc ", std::string(processor), " ", ModelName(model));
  if (model == Model::kLmo) {
    AddValue(out, "C", v.lmo_c);
    AddValue(out, "t", v.lmo_t);
  } else {
    AddValue(out, "os", v.hloggp_os);
    AddValue(out, "or", v.hloggp_or);
    AddValue(out, "g", v.hloggp_g);
  }
  return out;
}

std::string FormatPairRule(std::string_view a, std::string_view b, Model model,
                           const PairParams& v) {
  std::string out = absl::StrCat("pair ", std::string(a), " ", std::string(b),
                                 " ", ModelName(model));
  if (model == Model::kLmo) {
    AddValue(out, "L", v.lmo_l);
    AddValue(out, "rate", v.lmo_rate);
  } else {
    AddValue(out, "L", v.hloggp_l);
    AddValue(out, "G", v.hloggp_G);
  }
  return out;
}

LmoParams PointLmo(const LmoParams& level, const PointParams& points, LeafId a,
                   LeafId b, double* byte_scale) {
  LmoParams p = level;
  if (const ProcessorParams* s = points.FindProcessor(a)) {
    p.Cs = s->lmo_c.value_or(p.Cs);
    p.ts = s->lmo_t.value_or(p.ts);
  }
  if (const ProcessorParams* r = points.FindProcessor(b)) {
    p.Cr = r->lmo_c.value_or(p.Cr);
    p.tr = r->lmo_t.value_or(p.tr);
  }
  if (a != b) {
    if (const PairParams* q = points.FindPair(a, b)) {
      p.L = q->lmo_l.value_or(p.L);
      if (q->lmo_rate.has_value()) {
        p.rate = *q->lmo_rate;
        *byte_scale = 1.0;
      }
    }
  }
  return p;
}

HLogGPParams PointHLogGP(const HLogGPParams& level, const PointParams& points,
                         LeafId a, LeafId b, double* byte_scale) {
  HLogGPParams p = level;
  if (const ProcessorParams* s = points.FindProcessor(a)) {
    p.os = s->hloggp_os.value_or(p.os);
    p.g = s->hloggp_g.value_or(p.g);
  }
  if (const ProcessorParams* r = points.FindProcessor(b)) {
    p.orecv = r->hloggp_or.value_or(p.orecv);
  }
  if (a != b) {
    if (const PairParams* q = points.FindPair(a, b)) {
      p.L = q->hloggp_l.value_or(p.L);
      if (q->hloggp_G.has_value()) {
        p.G = *q->hloggp_G;
        *byte_scale = 1.0;
      }
    }
  }
  return p;
}

}  // namespace rankmap::models
