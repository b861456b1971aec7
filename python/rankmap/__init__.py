"""rankmap: place the processes of a parallel program onto the hardware tree.

    import rankmap, scipy.sparse
    traffic = scipy.sparse.random(8, 8, density=0.5, random_state=1)
    mapping, j = rankmap.map("tleaf 3 2 100 2 10 2 1", traffic, seed=7)

mapping[i] is the leaf (logical index) of process i (with `allowed`, the number
the leaf has in the whole machine, as the command writes it); j is the cost J, the sum
over process pairs of their traffic times the distance of their leaves. The
same inputs and seed give the mapping and J the `rankmap map` command gives.

With message counts (`messages=`, or app.msgs.mat beside a graph file) on a
topology with links, the engine minimises predicted time (messages x latency +
bytes / bandwidth per route) instead of J, and the order the job has now
(`present=`, the identity by default) is kept unless a mapping is predicted
faster by more than `keep_margin`; the result's `report` says what happened:

    result = rankmap.map("tleaf 2 2 25Gbps:1us 2 40GBps:0.5us", traffic,
                         messages=counts, present=[0, 2, 1, 3])
    result.report["verdict"]   # "kept", "replaced", ...

A `graph` argument may be
  * a scipy.sparse matrix or a square 2-D numpy array: a traffic matrix, entry
    (i, j) being what process i sends to process j; both directions of a pair
    are summed, as the .mat and .mtx readers do;
  * a tuple (xadj, adjncy, adjwgt) or (xadj, adjncy) of METIS-style CSR arrays
    (1 per arc without adjwgt): an arc (u, v, w) counts w / 2 toward the pair
    {u, v}, so a symmetric CSR keeps its weights, as the METIS reader and the
    C function rankmap_map read them;
  * a networkx graph: weights from the edge attribute `weight` (1 where it is
    missing, or everywhere when weight is None); an undirected edge {u, v}
    weighs w, a directed edge adds w to its pair; process i is the i-th node
    of G.nodes;
  * the path (str or os.PathLike) of a graph file in any format rankmap reads;
  * a Graph from read_graph() or graph().
A `topology` argument is a description the rankmap command takes with
--topology (an hwloc synthetic string such as "pack:2 core:4 pu:2", an inline
"tleaf L a1 c1 ...", an hwloc XML, tleaf or network spec file, "this"), or a
Topology from topology().

Bad input raises ValueError (or TypeError for an object of the wrong kind)
naming the argument at fault; files that cannot be read raise OSError; both
carry rankmap's message. Mapping and cost evaluation release the GIL.
"""

import numbers
import os
from typing import NamedTuple, Optional

import numpy as np
import scipy.sparse

from rankmap import _rankmap
from rankmap._rankmap import Graph, Topology

__all__ = [
    "CostReport",
    "Graph",
    "MapResult",
    "Topology",
    "algorithms",
    "cost",
    "graph",
    "map",
    "presets",
    "read_graph",
    "topology",
]


class _MappingAndJ(NamedTuple):
    mapping: np.ndarray  # int32, leaf of each process
    j: float


class MapResult(_MappingAndJ):
    """What map() returns: unpacks as `mapping, j = rankmap.map(...)`, and
    carries `report`, a dict saying how the order the job has now compared:
    verdict ("not weighed": an algorithm other than the portfolio or n-to-1;
    "kept", "replaced", "replaced by its refinement"), objective ("J" or
    "time"; "" when not weighed), present_cost, best_cost, chosen_cost (J, or
    T in seconds), present_estimate, best_estimate, chosen_estimate (the
    predicted time of one iteration in seconds, 0 without links: what the
    present order is kept or replaced by on a tree with links) and moved
    (processes on another leaf than in the present order)."""

    report = None

    def __new__(cls, mapping, j, report=None):
        self = super().__new__(cls, mapping, j)
        self.report = report
        return self


class CostReport(NamedTuple):
    """Metrics of a mapping (core/model/mapping.h), checked as `rankmap eval`
    checks it (n-to-1 mappings against the imbalance bound)."""

    j: float
    hop_bytes: Optional[float] = None
    max_link_volume: Optional[float] = None
    # The tree node whose link to its parent carries max_link_volume.
    max_link_node: Optional[int] = None
    # level_volume[d]: volume between processes whose leaves' lowest common
    # ancestor has depth d (the last entry: processes sharing a leaf).
    level_volume: Optional[np.ndarray] = None


def algorithms():
    """{name: one-line summary} of every algorithm map() accepts."""
    return dict(_rankmap.algorithms())


def presets():
    """The presets map() accepts, in the order of effort."""
    return list(_rankmap.presets())


def topology(description, *, slots_per_leaf=1, allowed=None, leaf="pu",
             level_costs=None):
    """Loads a topology description (see the module help) as a Topology.

    slots_per_leaf: processes each leaf can take (the rankmap command's
    --oversubscribe). allowed: the leaves to keep, as a string in hwloc list
    syntax ("0-3,8") or an iterable of ints: PU os indexes for hwloc inputs,
    logical leaf indexes for tleaf and network specs. leaf: "pu" or "core"
    (hwloc inputs). level_costs: per-level cost overrides such as
    "numa=100,pack=50" (hwloc inputs).

    The Topology has num_leaves, num_slots, num_nodes, height, balanced,
    levels (level names, root first), arities (children per node at each
    depth, root first; None when unbalanced), json, text (the drawing of
    `rankmap topology`), tleaf(), distance(a, b) and capacity(leaf), where
    leaves are the topology's own indexes 0..num_leaves-1, and leaf_ids: the
    number each leaf has in the whole machine (with allowed; what map()
    returns and cost() takes), else its index.
    """
    if isinstance(description, (str, os.PathLike)):
        description = os.fspath(description)
    else:
        raise TypeError("topology: expected a description string or a path, "
                        f"found {type(description).__name__}")
    slots = _integer("slots_per_leaf", slots_per_leaf, 1, 2**31 - 1)
    if leaf not in ("pu", "core"):
        raise ValueError(f"leaf: expected 'pu' or 'core', found {leaf!r}")
    if level_costs is not None and not isinstance(level_costs, str):
        raise TypeError("level_costs: expected a string such as "
                        f"'numa=100,pack=50', found {type(level_costs).__name__}")
    return _rankmap.load_topology(description, slots, _allowed(allowed), leaf,
                                  level_costs or "")


def read_graph(path, format="auto", messages=None):
    """Reads a graph file (.mat, .grf, .graph, .mtx or an edge list; format
    "auto" detects it from the content) as a Graph.

    messages: the file of message counts (a graph file of the same processes
    whose weights are counts); None reads the one beside `path` when it
    exists (app.msgs.mat beside app.mat or app.grf, as the profiler writes
    them and the command reads them); False reads none.

    The Graph has num_vertices, num_edges, total_volume, xadj, adjncy, adjwgt
    (symmetric CSR, w(u, v) on both arcs), vwgt (None without vertex weights),
    has_messages, adjmsg (messages per arc, None without counts),
    total_messages and edge_weight(u, v).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"read_graph: expected a path, found {type(path).__name__}")
    if not isinstance(format, str):
        raise TypeError(f"format: expected a string, found {type(format).__name__}")
    if messages is None or messages is False:
        counts = "" if messages is None else "none"
    elif isinstance(messages, (str, os.PathLike)):
        counts = os.fspath(messages)
    else:
        raise TypeError("messages: expected a path, None or False, found "
                        f"{type(messages).__name__}")
    return _rankmap.read_graph(os.fspath(path), format, counts)


def graph(graph, *, weight="weight", vwgt=None, messages=None):
    """Converts any accepted graph form (see the module help) to a Graph.

    weight: the networkx edge attribute holding the traffic (None: 1 each).
    vwgt: optional vertex weights (one finite value >= 0 per process) for
    n-to-1 mapping, where a leaf's load is the weight of its processes.
    messages: message counts of the same processes, in any graph form (the
    weights are counts, summed over both directions like the bytes), or
      * for a networkx graph, the name of the edge attribute holding them;
      * for a CSR tuple, a 1-D array of counts per arc beside adjwgt (as the
        C API's adjmsg);
      * None: none (for a graph file: the counts file beside it, if any; a
        Graph keeps its own); False: none at all.
    """
    return _graph(graph, weight, vwgt, messages)


def _graph(g, weight, vwgt, messages=None):
    if isinstance(g, Graph):
        if vwgt is not None:
            raise ValueError("vwgt: a Graph already carries its vertex weights")
        if messages is None:
            return g
        if messages is False:
            return _rankmap.attach_messages(g, None)
        return _rankmap.attach_messages(g, _counts(messages, g.num_vertices))
    if isinstance(g, (str, os.PathLike)):
        if vwgt is not None:
            raise ValueError("vwgt: a graph file carries its own vertex weights")
        if messages is None or messages is False or isinstance(
                messages, (str, os.PathLike)):
            return read_graph(g, messages=messages)
        base = read_graph(g, messages=False)
        return _rankmap.attach_messages(base, _counts(messages, base.num_vertices))
    n, src, dst, w, msgs = _arcs(g, weight, messages)
    if vwgt is not None:
        vwgt = _weights("vwgt", vwgt, lambda k: f"vwgt[{k}]")
        if vwgt.shape[0] != n:
            raise ValueError(f"vwgt: expected {n} vertex weights (one per "
                             f"process), found {vwgt.shape[0]}")
    base = _rankmap.graph_from_arcs(n, src, dst, w, vwgt, msgs)
    if msgs is not None or messages is None or messages is False:
        return base
    return _rankmap.attach_messages(base, _counts(messages, n))


def _counts(messages, n):
    """A Graph of message counts from any graph form, for n processes."""
    try:
        counts = _graph(messages, "weight", None, False)
    except (TypeError, ValueError) as e:
        text = str(e)
        text = text[len("graph: "):] if text.startswith("graph: ") else text
        raise type(e)(f"messages: {text}") from None
    if counts.num_vertices != n:
        raise ValueError(f"messages: expected counts of {n} processes, found "
                         f"{counts.num_vertices}")
    return counts


def map(topology, graph, *, algorithm=None, preset="default", seed=1,
        threads=1, slots_per_leaf=1, allowed=None, leaf="pu",
        level_costs=None, imbalance=None, weight="weight", vwgt=None,
        messages=None, objective="auto", present=None, keep_margin=0.02):
    """Maps the processes of `graph` onto the leaves of `topology`.

    algorithm: a name of algorithms() (None: the preset's, "portfolio" for
    "default"); preset: a name of presets() ("fast", "default", "strong");
    seed: an integer in [0, 2**64); threads: worker threads (the result does
    not depend on it). slots_per_leaf, allowed, leaf, level_costs: as in
    topology(), for a description. With more processes than slots rankmap
    partitions and maps in one step (n-to-1); imbalance bounds each leaf's
    share of the vertex weight (0.03 when None). weight, vwgt, messages: as
    in graph().

    objective: "auto" (predicted time where the graph has message counts and
    the topology has links, J elsewhere), "j" or "time" (an error without
    counts or links). present: the order the job has now, one leaf per
    process (numbered as map() returns them; None: the identity order); the
    portfolio keeps it unless a mapping is predicted better, by more than
    keep_margin (a fraction, 0.02) under time.

    Returns MapResult(mapping, j) with .report: an int32 array with the leaf
    of each process, the cost J (bytes x distance, whatever the objective),
    and how the present order compared (see MapResult).
    """
    tree = _topology(topology, slots_per_leaf, allowed, leaf, level_costs)
    g = _graph(graph, weight, vwgt, messages)
    if algorithm is not None and not isinstance(algorithm, str):
        raise TypeError(
            f"algorithm: expected a string, found {type(algorithm).__name__}")
    if not isinstance(preset, str):
        raise TypeError(f"preset: expected a string, found {type(preset).__name__}")
    if not isinstance(objective, str):
        raise TypeError(
            f"objective: expected a string, found {type(objective).__name__}")
    if present is not None:
        present = _tree_leaves(tree, "present", present, g.num_vertices)
    mapping, j, report = _rankmap.map(
        tree, g, algorithm, preset, _integer("seed", seed, 0, 2**64 - 1),
        _integer("threads", threads, 1, 1024), _imbalance(imbalance),
        objective, _margin(keep_margin), present)
    ids = np.asarray(tree.leaf_ids, dtype=mapping.dtype)
    return MapResult(ids[mapping], j, report)


def cost(topology, graph, mapping, *, slots_per_leaf=1, allowed=None,
         leaf="pu", level_costs=None, imbalance=None, weight="weight",
         vwgt=None):
    """Evaluates a mapping (an integer array with the leaf of each process)
    after checking it, as `rankmap eval` does. Arguments as in map().

    Returns a CostReport (j, hop_bytes, max_link_volume, max_link_node,
    level_volume); for n-to-1 mappings the leaf loads are checked against
    imbalance (0.03 when None), as `rankmap eval` checks them.
    """
    tree = _topology(topology, slots_per_leaf, allowed, leaf, level_costs)
    g = _graph(graph, weight, vwgt)
    m = _tree_leaves(tree, "mapping", mapping, g.num_vertices)
    report = _rankmap.cost(tree, g, m, _imbalance(imbalance))
    return CostReport(**report)


# ---- argument checks and conversions ----


def _integer(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name}: expected an integer, found {type(value).__name__}")
    if not low <= int(value) <= high:
        raise ValueError(
            f"{name}: expected an integer in [{low}, {high}], found {value}")
    return int(value)


def _tree_leaves(tree, name, values, n):
    """values (one leaf per process, numbered as map() returns them) as the
    topology's own leaf indexes, an int64 array; name is the argument."""
    m = np.asarray(values)
    if m.dtype.kind not in "iu":
        raise ValueError(
            f"{name}: expected an integer array, found dtype {m.dtype}")
    if m.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, found shape {m.shape}")
    if m.shape[0] != n:
        raise ValueError(f"{name}: expected {n} entries (one leaf per "
                         f"process), found {m.shape[0]}")
    ids = np.asarray(tree.leaf_ids, dtype=np.int64)
    if not np.array_equal(ids, np.arange(tree.num_leaves)):
        # Leaves named in the whole machine's numbers (allowed): back to the
        # topology's own indexes.
        order = np.argsort(ids)
        pos = np.searchsorted(ids[order], m)
        found = pos < ids.size
        found[found] = ids[order][pos[found]] == m[found]
        if not found.all():
            p = int(np.flatnonzero(~found)[0])
            raise ValueError(f"{name}: process {p} on leaf {m[p]}, "
                             "which is not among the allowed leaves")
        m = order[pos].astype(np.int64)
    if m.size and (m.min() < 0 or m.max() >= tree.num_leaves):
        p = int(np.flatnonzero((m < 0) | (m >= tree.num_leaves))[0])
        raise ValueError(f"{name}: process {p} on leaf {m[p]}, outside "
                         f"[0, {tree.num_leaves})")
    return m.astype(np.int64)


def _margin(value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"keep_margin: expected a number, found {type(value).__name__}")
    if not 0 <= value < 1:
        raise ValueError(
            f"keep_margin: expected a fraction in [0, 1), found {value}")
    return float(value)


def _imbalance(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"imbalance: expected a number, found {type(value).__name__}")
    if not np.isfinite(value) or value < 0:
        raise ValueError(
            f"imbalance: expected a finite number >= 0, found {value}")
    return float(value)


def _allowed(allowed):
    if allowed is None:
        return ""
    if isinstance(allowed, str):
        return allowed
    leaves = np.asarray(list(allowed))
    if leaves.size == 0:
        raise ValueError("allowed: no leaf given (None keeps them all)")
    if leaves.dtype.kind not in "iu" or leaves.ndim != 1:
        raise ValueError("allowed: expected a string such as '0-3,8' or "
                         "integers")
    if leaves.min() < 0:
        raise ValueError(f"allowed: negative leaf {leaves.min()}")
    return ",".join(str(int(x)) for x in leaves)


def _topology(topology_, slots_per_leaf, allowed, leaf, level_costs):
    if isinstance(topology_, Topology):
        if (slots_per_leaf != 1 or allowed is not None or leaf != "pu" or
                level_costs is not None):
            raise ValueError(
                "slots_per_leaf, allowed, leaf and level_costs apply to "
                "topology descriptions; pass them to rankmap.topology()")
        return topology_
    return topology(topology_, slots_per_leaf=slots_per_leaf, allowed=allowed,
                    leaf=leaf, level_costs=level_costs)


def _weights(name, values, where):
    """values as a 1-D float64 array of finite values >= 0; where(k) names
    entry k in errors."""
    a = np.asarray(values)
    if a.dtype.kind not in "biuf":
        raise ValueError(f"{name}: expected real numbers, found dtype {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, found shape {a.shape}")
    a = a.astype(np.float64)
    bad = ~np.isfinite(a) | (a < 0)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}: {where(k)} is {a[k]}; weights must be "
                         "finite and >= 0")
    return a


def _index_array(name, values):
    a = np.asarray(values)
    if a.dtype.kind not in "iu":
        raise ValueError(
            f"{name}: expected an integer array, found dtype {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, found shape {a.shape}")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name}: value {a.max()} does not fit in 64 bits")
    return a.astype(np.int64)


def _arcs(g, weight, messages=None):
    """(n, src, dst, w, msgs): the arcs of any in-memory graph form, checked;
    msgs, the counts per arc, when `messages` gives them arc by arc (an
    attribute name for networkx, an array beside adjwgt for CSR), else None."""
    if scipy.sparse.issparse(g):
        return _matrix_arcs(g.tocoo(), g.shape) + (None,)
    if isinstance(g, np.ndarray):
        if g.ndim != 2:
            raise ValueError(
                f"graph: expected a square 2-D matrix, found shape {g.shape}")
        return _matrix_arcs(scipy.sparse.coo_matrix(_dense(g)), g.shape) + (None,)
    if isinstance(g, tuple):
        n, src, dst, w = _csr_arcs(g)
        msgs = None
        if _per_arc(messages):
            msgs = _weights("messages", messages, lambda k: f"messages[{k}]")
            if msgs.shape[0] != w.shape[0]:
                raise ValueError(f"messages: expected {w.shape[0]} counts (one "
                                 f"per arc, as adjncy), found {msgs.shape[0]}")
            msgs = msgs / 2.0
        return n, src, dst, w, msgs
    nx = _networkx()
    if nx is not None and isinstance(g, nx.Graph):
        n, src, dst, w = _networkx_arcs(g, weight)
        msgs = None
        if isinstance(messages, str):
            msgs = _networkx_arcs(g, messages, missing=0.0)[3]
        return n, src, dst, w, msgs
    raise TypeError(
        "graph: expected a scipy.sparse matrix, a 2-D numpy array, a tuple "
        "(xadj, adjncy, adjwgt), a networkx graph, a path or a Graph, found "
        f"{type(g).__name__}")


def _dense(a):
    if a.dtype.kind not in "biuf":
        raise ValueError(
            f"graph: expected a matrix of real numbers, found dtype {a.dtype}")
    bad = ~np.isfinite(a) | (a < 0)
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ValueError(f"graph: entry ({i}, {j}) is {a[i, j]}; weights "
                         "must be finite and >= 0")
    return a


def _matrix_arcs(coo, shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"graph: expected a square matrix (one row and one "
                         f"column per process), found {shape[0]} x {shape[1]}")
    if coo.dtype.kind not in "biuf":
        raise ValueError(
            f"graph: expected a matrix of real numbers, found dtype {coo.dtype}")
    row, col = coo.row, coo.col
    w = _weights("graph", coo.data,
                 lambda k: f"entry ({row[k]}, {col[k]})")
    return shape[0], row.astype(np.int64), col.astype(np.int64), w


def _csr_arcs(csr):
    if len(csr) == 2:
        xadj, adjncy = csr
        adjwgt = None
    elif len(csr) == 3:
        xadj, adjncy, adjwgt = csr
    else:
        raise ValueError("graph: a CSR tuple is (xadj, adjncy, adjwgt) or "
                         f"(xadj, adjncy), found {len(csr)} arrays")
    xadj = _index_array("xadj", xadj)
    adjncy = _index_array("adjncy", adjncy)
    if xadj.shape[0] == 0:
        raise ValueError("xadj: expected n + 1 entries, found none")
    n = xadj.shape[0] - 1
    if xadj[0] != 0:
        raise ValueError(f"xadj: xadj[0] must be 0, found {xadj[0]}")
    steps = np.diff(xadj)
    if (steps < 0).any():
        u = int(np.flatnonzero(steps < 0)[0])
        raise ValueError(f"xadj: decreases at vertex {u} ({xadj[u]} then "
                         f"{xadj[u + 1]})")
    if xadj[-1] != adjncy.shape[0]:
        raise ValueError(f"xadj: xadj[{n}] = {xadj[-1]} but adjncy has "
                         f"{adjncy.shape[0]} entries")
    if adjwgt is None:
        w = np.ones(adjncy.shape[0])
    else:
        w = _weights("adjwgt", adjwgt, lambda k: f"adjwgt[{k}]")
        if w.shape[0] != adjncy.shape[0]:
            raise ValueError(f"adjwgt: expected {adjncy.shape[0]} entries "
                             f"(one per arc, as adjncy), found {w.shape[0]}")
    outside = (adjncy < 0) | (adjncy >= n)
    if outside.any():
        k = int(np.flatnonzero(outside)[0])
        raise ValueError(f"adjncy: adjncy[{k}] = {adjncy[k]} is not a vertex "
                         f"of the {n}-vertex graph")
    src = np.repeat(np.arange(n, dtype=np.int64), steps)
    return n, src, adjncy, w / 2.0


def _networkx():
    try:
        import networkx  # noqa: PLC0415 (optional)
    except ImportError:
        return None
    return networkx


def _per_arc(messages):
    """True when `messages` is a 1-D array of counts (one per CSR arc)."""
    if messages is None or messages is False or isinstance(
            messages, (str, os.PathLike, tuple, Graph)):
        return False
    if scipy.sparse.issparse(messages):
        return False
    return np.ndim(messages) == 1


def _networkx_arcs(g, weight, missing=1.0):
    index = {node: i for i, node in enumerate(g.nodes)}
    if weight is None:
        edges = [(u, v, 1.0) for u, v in g.edges()]
    else:
        edges = list(g.edges(data=weight, default=missing))
    src = np.fromiter((index[u] for u, _, _ in edges), np.int64, len(edges))
    dst = np.fromiter((index[v] for _, v, _ in edges), np.int64, len(edges))
    values = [w for _, _, w in edges]
    for k, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            u, v, _ = edges[k]
            raise ValueError(f"graph: edge ({u!r}, {v!r}) has {weight} = "
                             f"{value!r}, expected a number")
    w = _weights("graph", np.asarray(values, dtype=np.float64).reshape(-1),
                 lambda k: f"edge ({edges[k][0]!r}, {edges[k][1]!r})")
    return len(index), src, dst, w
