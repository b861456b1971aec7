// rankmap._rankmap: the Python extension under the `rankmap` package, thin
// pybind11 bindings over the library's front door (api/: options and machines
// by name, one mapping request with its checked cost and verdict) and the
// readers (graphs/graphs.h, graphs/traffic.h).
//
//   tree = _rankmap.load_topology("tleaf 2 2 10 2 1", 1, "", "pu", "")
//   graph = _rankmap.graph_from_arcs(4, src, dst, w, None)
//   mapping, j, report = _rankmap.map(tree, graph, "portfolio", "default", 1,
//                                     1, None)
//
// rankmap/__init__.py turns user objects (scipy, numpy, networkx, paths) into
// these calls and names the Python argument at fault; this file checks again
// whatever could crash or exhaust memory (array lengths, ids, weights, sizes),
// so the module is safe when called directly. A non-OK absl::Status becomes
// OSError (files: NotFound, PermissionDenied, DataLoss, ResourceExhausted),
// ValueError (bad input) or RuntimeError (internal failure), with rankmap's
// message. The GIL is released while rankmap works on C++ data.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "api/load_topology.h"
#include "api/map_outcome.h"
#include "api/named_options.h"
#include "base/status_macros.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "graphs/read_options.h"
#include "graphs/traffic.h"
#include "topology/tleaf.h"
#include "topology/topology.h"
#include "topology/tree.h"
#include "topology/tree_ops.h"

namespace py = pybind11;

namespace rankmap::python {
namespace {

// Carries a non-OK Status to the translator registered in the module.
class StatusError : public std::exception {
 public:
  explicit StatusError(absl::Status status)
      : status_(std::move(status)), message_(status_.message()) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
  std::string message_;
};

void Check(absl::Status status) {
  if (!status.ok()) throw StatusError(std::move(status));
}

template <typename T>
T Value(absl::StatusOr<T> value) {
  Check(value.status());
  return *std::move(value);
}

void Translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const StatusError& e) {
    PyObject* type = PyExc_ValueError;
    switch (e.status().code()) {
      case absl::StatusCode::kNotFound:
      case absl::StatusCode::kPermissionDenied:
      case absl::StatusCode::kDataLoss:
      case absl::StatusCode::kResourceExhausted:
        type = PyExc_OSError;
        break;
      case absl::StatusCode::kInternal:
      case absl::StatusCode::kUnknown:
        type = PyExc_RuntimeError;
        break;
      default:
        break;
    }
    PyErr_SetString(type, e.what());
  }
}

// A loaded topology and the description it came from.
struct Topology {
  topology::Tree tree;
  std::string description;
  // Loaded with `allowed`: leaves are named by their number in the whole
  // machine (as the rankmap command writes them; cli/leaf_numbering.h).
  bool restricted = false;
};

// The caller's number of each leaf: with `allowed`, the number it had in the
// whole machine (topology::NumbersBeforeRestrict); otherwise, or when those
// repeat (several hosts), the leaf index.
std::vector<int32_t> LeafIds(const Topology& t) {
  if (t.restricted) {
    std::vector<int32_t> before = topology::NumbersBeforeRestrict(t.tree);
    if (!before.empty()) return before;
  }
  std::vector<int32_t> ids(t.tree.num_leaves());
  for (int32_t l = 0; l < t.tree.num_leaves(); ++l) ids[l] = l;
  return ids;
}

// Checks the size of a graph before anything of that size is allocated, with
// the budget the file readers use.
void CheckGraphSize(int64_t n, int64_t arcs) {
  if (n < 0 || n > std::numeric_limits<graphs::VertexId>::max()) {
    Check(absl::InvalidArgumentError(
        absl::StrCat("graph: ", n, " vertices (expected 0 to ",
                     std::numeric_limits<graphs::VertexId>::max(), ")")));
  }
  const int64_t need = graphs::EstimatedGraphBytes(n, 2 * arcs);
  const int64_t budget = graphs::MemoryBudget({});
  if (need > budget) {
    Check(absl::InvalidArgumentError(absl::StrCat(
        "graph: ", n, " vertices and ", arcs, " arcs need about ", need >> 20,
        " MiB, more than the memory budget of ", budget >> 20, " MiB")));
  }
}

Topology LoadTopology(const std::string& description, int32_t slots_per_leaf,
                      const std::string& allowed, const std::string& leaf,
                      const std::string& level_costs) {
  const api::TopologySpec spec = {.description = description,
                                  .leaf = leaf,
                                  .slots_per_leaf = slots_per_leaf,
                                  .allowed = allowed,
                                  .level_costs = level_costs};
  absl::StatusOr<topology::Tree> tree;
  {
    py::gil_scoped_release release;
    tree = api::LoadTree(spec);
  }
  return Topology{Value(std::move(tree)), description, !allowed.empty()};
}

// Arc k means "src[k] sends w[k] to dst[k]" (in msgs[k] messages, when
// given); both directions of a pair are summed, duplicates merged, self loops
// dropped (graphs/comm_graph.h).
graphs::CommGraph GraphFromArcs(
    int64_t n, py::array_t<int64_t, py::array::c_style> src,
    py::array_t<int64_t, py::array::c_style> dst,
    py::array_t<double, py::array::c_style> w,
    std::optional<py::array_t<double, py::array::c_style>> vwgt,
    std::optional<py::array_t<double, py::array::c_style>> msgs) {
  if (src.ndim() != 1 || dst.ndim() != 1 || w.ndim() != 1 ||
      src.size() != dst.size() || src.size() != w.size() ||
      (msgs.has_value() && (msgs->ndim() != 1 || msgs->size() != w.size()))) {
    Check(absl::InvalidArgumentError(
        absl::StrCat("graph: arc arrays of different lengths or shapes (",
                     src.size(), ", ", dst.size(), ", ", w.size(),
                     msgs.has_value() ? absl::StrCat(", ", msgs->size()) : "",
                     " entries)")));
  }
  if (vwgt.has_value() && (vwgt->ndim() != 1 || vwgt->size() != n)) {
    Check(absl::InvalidArgumentError(absl::StrCat(
        "vwgt: expected ", n, " vertex weights, found ", vwgt->size())));
  }
  CheckGraphSize(n, src.size());
  const int64_t* s = src.data();
  const int64_t* d = dst.data();
  const double* weight = w.data();
  const double* vw = vwgt.has_value() ? vwgt->data() : nullptr;
  const double* m = msgs.has_value() ? msgs->data() : nullptr;
  const int64_t arcs = src.size();
  absl::StatusOr<graphs::CommGraph> graph;
  {
    py::gil_scoped_release release;
    graph = [&]() -> absl::StatusOr<graphs::CommGraph> {
      graphs::CommGraphBuilder builder(n);
      builder.Reserve(arcs);
      for (int64_t k = 0; k < arcs; ++k) {
        RETURN_IF_ERROR(m == nullptr
                            ? builder.AddEdge(s[k], d[k], weight[k])
                            : builder.AddTraffic(s[k], d[k], weight[k], m[k]));
      }
      if (vw != nullptr) {
        for (int64_t v = 0; v < n; ++v) {
          RETURN_IF_ERROR(builder.SetVertexWeight(v, vw[v]));
        }
      }
      return std::move(builder).Build();
    }();
  }
  return Value(std::move(graph));
}

// The graph in `path` with its message counts (graphs/traffic.h): `messages`
// "" reads the counts file beside it when there is one, "none" none, anything
// else names the counts file.
graphs::CommGraph ReadGraph(const std::string& path, const std::string& format,
                            const std::string& messages) {
  graphs::TrafficOptions options;
  options.format = Value(graphs::ParseGraphFormat(format));
  options.messages = messages;
  absl::StatusOr<graphs::Traffic> traffic;
  {
    py::gil_scoped_release release;
    traffic = graphs::ReadTraffic(path, options);
  }
  return std::move(Value(std::move(traffic)).graph);
}

// `bytes` with the message counts of `messages` (a graph of the same processes
// whose weights are counts; graphs::AttachMessages), or without counts when
// `messages` is None.
graphs::CommGraph AttachMessages(const graphs::CommGraph& bytes,
                                 const graphs::CommGraph* messages) {
  absl::StatusOr<graphs::CommGraph> graph;
  {
    py::gil_scoped_release release;
    graph = messages == nullptr
                ? bytes.WithMessages({})
                : graphs::AttachMessages(bytes, *messages, "messages");
  }
  return Value(std::move(graph));
}

template <typename T>
py::array_t<T> ToArray(std::span<const T> values) {
  py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// A mapping array of one leaf index per process, checked for shape and range.
core::Mapping LeafArray(const char* name, const topology::Tree& tree,
                        const py::array_t<int64_t, py::array::c_style>& a,
                        int64_t num_processes) {
  if (a.ndim() != 1) {
    Check(absl::InvalidArgumentError(absl::StrCat(
        name, ": expected a 1-D array, found ", a.ndim(), " dimensions")));
  }
  if (a.size() != num_processes) {
    Check(absl::InvalidArgumentError(
        absl::StrCat(name, ": expected ", num_processes,
                     " entries (one leaf per process), found ", a.size())));
  }
  core::Mapping m(static_cast<size_t>(a.size()));
  for (int64_t p = 0; p < a.size(); ++p) {
    const int64_t leaf = a.data()[p];
    if (leaf < 0 || leaf >= tree.num_leaves()) {
      Check(absl::InvalidArgumentError(
          absl::StrCat(name, ": process ", p, " on leaf ", leaf,
                       ", outside [0, ", tree.num_leaves(), ")")));
    }
    m[p] = static_cast<core::LeafId>(leaf);
  }
  return m;
}

// How the present order compared (core::MapReport), as a dict.
py::dict ReportDict(const core::MapReport& r) {
  py::dict out;
  out["verdict"] = std::string(api::VerdictName(api::VerdictOf(r)));
  out["objective"] = r.weighed ? r.objective : std::string();
  out["present_cost"] = r.present_cost;
  out["present_estimate"] = r.present_estimate;
  out["best_cost"] = r.best_cost;
  out["best_estimate"] = r.best_estimate;
  out["chosen_cost"] = r.chosen_cost;
  out["chosen_estimate"] = r.chosen_estimate;
  out["moved"] = r.moved;
  return out;
}

// Options by name through the front door every interface shares (the preset,
// then the algorithm when one is named: None keeps the preset's).
py::tuple Map(const Topology& topo, const graphs::CommGraph& graph,
              const std::optional<std::string>& algorithm,
              const std::string& preset, uint64_t seed, int32_t threads,
              std::optional<double> imbalance, const std::string& objective,
              double keep_margin,
              std::optional<py::array_t<int64_t, py::array::c_style>> present) {
  api::NamedOptions names;
  names.preset = preset;
  names.algorithm = algorithm.value_or("");
  names.objective = objective;
  names.keep_margin = keep_margin;
  if (present.has_value()) {
    names.present =
        LeafArray("present", topo.tree, *present, graph.num_vertices());
  }
  names.seed = seed;
  names.threads = threads;
  names.imbalance = imbalance;
  const core::MappingOptions options = Value(api::ResolveOptions(names));
  absl::StatusOr<api::MapOutcome> out;
  {
    py::gil_scoped_release release;
    out = api::MapChecked(topo.tree, graph, options);
  }
  Check(out.status());
  return py::make_tuple(ToArray<core::LeafId>(out->mapping), out->cost.j,
                        ReportDict(out->report));
}

// Every metric of a mapping after the check that fits it (core::CheckedCost:
// one-to-one, or the partition bound `imbalance` on n-to-1 inputs).
py::dict Cost(const Topology& topo, const graphs::CommGraph& graph,
              py::array_t<int64_t, py::array::c_style> mapping,
              std::optional<double> imbalance) {
  const core::Mapping m =
      LeafArray("mapping", topo.tree, mapping, graph.num_vertices());
  const double bound = imbalance.value_or(core::MappingOptions().imbalance);
  py::dict out;
  absl::StatusOr<core::CostReport> cost;
  {
    py::gil_scoped_release release;
    cost = core::CheckedCost(topo.tree, graph, m, bound);
  }
  Check(cost.status());
  out["j"] = cost->j;
  out["hop_bytes"] = cost->hop_bytes;
  out["max_link_volume"] = cost->max_link_volume;
  out["max_link_node"] = cost->max_link_node;
  out["level_volume"] = ToArray<double>(cost->level_volume);
  return out;
}

// Level names by depth, root first: the kind of the first node met at each
// depth (the names `rankmap eval` prints).
std::vector<std::string> LevelNames(const topology::Tree& tree) {
  std::vector<std::string> names(tree.height() + 1);
  std::vector<bool> seen(names.size(), false);
  for (topology::NodeId v = tree.num_nodes() - 1; v >= 0; --v) {
    const int32_t d = tree.depth(v);
    if (!seen[d]) names[d] = tree.kind(v), seen[d] = true;
  }
  return names;
}

void CheckLeaf(const topology::Tree& tree, int64_t leaf) {
  if (leaf < 0 || leaf >= tree.num_leaves()) {
    Check(absl::InvalidArgumentError(
        absl::StrCat("leaf ", leaf, " outside [0, ", tree.num_leaves(), ")")));
  }
}

}  // namespace
}  // namespace rankmap::python

PYBIND11_MODULE(_rankmap, m) {
  using namespace rankmap;
  using namespace rankmap::python;
  m.doc() = "rankmap's C++ engine; use the rankmap package, not this module.";
  py::register_exception_translator(&Translate);

  py::class_<Topology>(m, "Topology")
      .def_property_readonly("description",
                             [](const Topology& t) { return t.description; })
      .def_property_readonly(
          "num_leaves", [](const Topology& t) { return t.tree.num_leaves(); })
      .def_property_readonly(
          "num_slots",
          [](const Topology& t) { return t.tree.Capacity(t.tree.root()); })
      .def_property_readonly(
          "num_nodes", [](const Topology& t) { return t.tree.num_nodes(); })
      .def_property_readonly("height",
                             [](const Topology& t) { return t.tree.height(); })
      .def_property_readonly(
          "balanced", [](const Topology& t) { return t.tree.Balanced(); })
      .def_property_readonly(
          "arities",
          [](const Topology& t) -> std::optional<std::vector<int32_t>> {
            if (!t.tree.Balanced()) return std::nullopt;
            return t.tree.Arities();
          })
      .def_property_readonly(
          "levels", [](const Topology& t) { return LevelNames(t.tree); })
      .def_property_readonly("leaf_ids", &LeafIds)
      .def_property_readonly(
          "json", [](const Topology& t) { return topology::ToJson(t.tree); })
      .def_property_readonly(
          "text", [](const Topology& t) { return topology::DrawTree(t.tree); })
      .def(
          "tleaf",
          [](const Topology& t) { return Value(topology::WriteTleaf(t.tree)); })
      .def("distance",
           [](const Topology& t, int64_t a, int64_t b) {
             CheckLeaf(t.tree, a);
             CheckLeaf(t.tree, b);
             return t.tree.Distance(static_cast<topology::LeafId>(a),
                                    static_cast<topology::LeafId>(b));
           })
      .def("__repr__",
           [](const Topology& t) {
             return absl::StrCat("<rankmap.Topology '", t.description,
                                 "': ", t.tree.num_leaves(), " leaves>");
           })
      .def("capacity", [](const Topology& t, int64_t leaf) {
        CheckLeaf(t.tree, leaf);
        return t.tree.capacity(static_cast<topology::LeafId>(leaf));
      });

  py::class_<graphs::CommGraph>(m, "Graph")
      .def_property_readonly("num_vertices", &graphs::CommGraph::num_vertices)
      .def_property_readonly("num_edges", &graphs::CommGraph::num_edges)
      .def_property_readonly("total_volume", &graphs::CommGraph::TotalVolume)
      .def_property_readonly(
          "xadj", [](const graphs::CommGraph& g) { return ToArray(g.xadj()); })
      .def_property_readonly(
          "adjncy",
          [](const graphs::CommGraph& g) { return ToArray(g.adjncy()); })
      .def_property_readonly(
          "adjwgt",
          [](const graphs::CommGraph& g) { return ToArray(g.adjwgt()); })
      .def_property_readonly(
          "vwgt",
          [](const graphs::CommGraph& g) -> std::optional<py::array_t<double>> {
            if (!g.has_vertex_weights()) return std::nullopt;
            return ToArray(g.vwgt());
          })
      .def_property_readonly("has_messages", &graphs::CommGraph::has_messages)
      .def_property_readonly("total_messages",
                             &graphs::CommGraph::TotalMessages)
      .def_property_readonly(
          "adjmsg",
          [](const graphs::CommGraph& g) -> std::optional<py::array_t<double>> {
            if (!g.has_messages()) return std::nullopt;
            return ToArray(g.adjmsg());
          })
      .def("__repr__",
           [](const graphs::CommGraph& g) {
             return absl::StrCat("<rankmap.Graph: ", g.num_vertices(),
                                 " vertices, ", g.num_edges(), " edges>");
           })
      .def("edge_weight", [](const graphs::CommGraph& g, int64_t u, int64_t v) {
        for (int64_t x : {u, v}) {
          if (x < 0 || x >= g.num_vertices()) {
            Check(absl::InvalidArgumentError(absl::StrCat(
                "vertex ", x, " outside [0, ", g.num_vertices(), ")")));
          }
        }
        return g.EdgeWeight(static_cast<graphs::VertexId>(u),
                            static_cast<graphs::VertexId>(v));
      });

  m.def("load_topology", &LoadTopology, py::arg("description"),
        py::arg("slots_per_leaf"), py::arg("allowed"), py::arg("leaf"),
        py::arg("level_costs"));
  m.def("graph_from_arcs", &GraphFromArcs, py::arg("n"), py::arg("src"),
        py::arg("dst"), py::arg("w"), py::arg("vwgt"),
        py::arg("msgs") = py::none());
  m.def("read_graph", &ReadGraph, py::arg("path"), py::arg("format"),
        py::arg("messages") = "");
  m.def("attach_messages", &AttachMessages, py::arg("graph"),
        py::arg("messages").none(true));
  m.def("map", &Map, py::arg("topology"), py::arg("graph"),
        py::arg("algorithm"), py::arg("preset"), py::arg("seed"),
        py::arg("threads"), py::arg("imbalance"), py::arg("objective") = "auto",
        py::arg("keep_margin") = core::MappingOptions().keep_margin,
        py::arg("present") = py::none());
  m.def("cost", &Cost, py::arg("topology"), py::arg("graph"),
        py::arg("mapping"), py::arg("imbalance"));
  m.def("algorithms", []() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const core::AlgorithmInfo& a : core::Algorithms()) {
      out.emplace_back(std::string(a.name), std::string(a.summary));
    }
    return out;
  });
  m.def("presets", []() {
    std::vector<std::string> out;
    for (std::string_view p : core::PresetNames()) out.emplace_back(p);
    return out;
  });
}
