"""Bad input raises a Python exception that names what is wrong; nothing
crashes the interpreter."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import rankmap
from rankmap import _rankmap

TOPO = "tleaf 2 2 10 2 1"
XADJ = np.array([0, 1, 2])
ADJNCY = np.array([1, 0])


@pytest.mark.parametrize("graph, message", [
    (np.ones((2, 3)), r"square matrix .* found 2 x 3"),
    (scipy.sparse.csr_matrix(np.ones((3, 2))), r"found 3 x 2"),
    (np.ones(4), r"square 2-D matrix, found shape \(4,\)"),
    (np.array([[0, 1j], [0, 0]]), r"real numbers, found dtype complex128"),
    (np.array([["a", "b"], ["c", "d"]]), r"real numbers, found dtype <U1"),
    (scipy.sparse.csr_matrix(np.array([[0, 1j], [0, 0]])), r"dtype complex"),
    (np.array([[0, -2.0], [0, 0]]), r"entry \(0, 1\) is -2.0"),
    (np.array([[0, np.nan], [0, 0]]), r"entry \(0, 1\) is nan"),
    (np.array([[0, 0], [np.inf, 0]]), r"entry \(1, 0\) is inf"),
    (scipy.sparse.coo_matrix(([1.0, -1.0], ([0, 1], [1, 0])), shape=(2, 2)),
     r"entry \(1, 0\) is -1.0"),
    (scipy.sparse.csr_matrix(np.array([[0, np.nan], [0, 0]])), r"is nan"),
    ((XADJ.astype(float), ADJNCY), r"xadj: expected an integer array, found "
     r"dtype float64"),
    ((XADJ, ADJNCY.astype(float)), r"adjncy: expected an integer array"),
    ((XADJ, ADJNCY, ["x", "y"]), r"adjwgt: expected real numbers"),
    ((XADJ, ADJNCY, [1.0, -1.0]), r"adjwgt: adjwgt\[1\] is -1.0"),
    ((XADJ, ADJNCY, [1.0, np.nan]), r"adjwgt\[1\] is nan"),
    ((XADJ, ADJNCY, [1.0]), r"adjwgt: expected 2 entries .* found 1"),
    ((XADJ, ADJNCY, [1.0, 1.0, 1.0]), r"expected 2 entries .* found 3"),
    ((np.array([0, 1, 3]), ADJNCY), r"xadj\[2\] = 3 but adjncy has 2 entries"),
    ((np.array([1, 1, 2]), ADJNCY), r"xadj\[0\] must be 0, found 1"),
    ((np.array([0, 2, 1, 2]), np.array([1, 0])), r"decreases at vertex 1"),
    ((np.array([], dtype=int), ADJNCY), r"xadj: expected n \+ 1 entries"),
    ((XADJ, np.array([1, 2])), r"adjncy\[1\] = 2 is not a vertex of the "
     r"2-vertex graph"),
    ((XADJ, np.array([1, -1])), r"adjncy\[1\] = -1 is not a vertex"),
    ((XADJ.reshape(1, 3), ADJNCY), r"xadj: expected a 1-D array"),
    ((XADJ,), r"a CSR tuple is \(xadj, adjncy, adjwgt\)"),
])
def test_bad_graphs_raise_value_error(graph, message):
    with pytest.raises(ValueError, match=message):
        rankmap.map(TOPO, graph)


def test_bad_networkx_weights():
    g = nx.Graph()
    g.add_edge(0, 1, weight=-3.0)
    with pytest.raises(ValueError, match=r"edge \(0, 1\) is -3.0"):
        rankmap.map(TOPO, g)
    g.add_edge(0, 1, weight="heavy")
    with pytest.raises(ValueError, match=r"weight = 'heavy', expected a number"):
        rankmap.map(TOPO, g)
    g.add_edge(0, 1, weight=float("nan"))
    with pytest.raises(ValueError, match=r"is nan"):
        rankmap.map(TOPO, g)


def test_wrong_kinds_of_objects_raise_type_error():
    with pytest.raises(TypeError, match=r"graph: expected a scipy.sparse "
                       r"matrix.*found list"):
        rankmap.map(TOPO, [[0, 1], [1, 0]])
    with pytest.raises(TypeError, match=r"topology: expected a description"):
        rankmap.map(42, np.zeros((2, 2)))
    with pytest.raises(TypeError, match=r"seed: expected an integer"):
        rankmap.map(TOPO, np.zeros((2, 2)), seed=1.5)


@pytest.mark.parametrize("kwargs, message", [
    ({"algorithm": "fastest"}, r"unknown algorithm 'fastest' \(expected "
     r"portfolio, tm"),
    ({"preset": "turbo"}, r"unknown preset 'turbo' \(expected fast, default, strong\)"),
    ({"seed": -1}, r"seed: expected an integer in \[0, 18446744073709551615\]"),
    ({"seed": 2**64}, r"seed: expected an integer"),
    ({"threads": 0}, r"threads: expected an integer in \[1, 1024\]"),
    ({"slots_per_leaf": 0}, r"slots_per_leaf: expected an integer in \[1,"),
    ({"imbalance": -0.5}, r"imbalance: expected a finite number >= 0"),
    ({"imbalance": float("nan")}, r"imbalance: expected a finite number"),
    ({"leaf": "socket"}, r"leaf: expected 'pu' or 'core', found 'socket'"),
    ({"allowed": [0, -1]}, r"allowed: negative leaf -1"),
    ({"allowed": "0-9"}, r"0-9"),
    ({"vwgt": [1.0, 2.0]}, r"vwgt: expected 4 vertex weights .* found 2"),
    ({"vwgt": [1.0, 1.0, 1.0, -1.0]}, r"vwgt: vwgt\[3\] is -1.0"),
])
def test_bad_options_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rankmap.map(TOPO, np.ones((4, 4)), **kwargs)


def test_bad_topologies_carry_rankmap_messages():
    with pytest.raises(ValueError, match=r"topology/synthetic: .*'pack:0'"):
        rankmap.topology("pack:0")
    with pytest.raises(ValueError, match=r"tleaf"):
        rankmap.topology("tleaf 2 2")
    with pytest.raises(OSError, match=r"no/such/file.xml: no such topology"):
        rankmap.topology("no/such/file.xml")
    with pytest.raises(ValueError, match=r"unbalanced|pair|tleaf"):
        rankmap.topology("pack:2 core:2", allowed="0-2").tleaf()
    with pytest.raises(ValueError, match=r"leaf 4 outside \[0, 4\)"):
        rankmap.topology(TOPO).distance(0, 4)


def test_unreadable_files_raise_os_error(tmp_path):
    with pytest.raises(OSError, match=r"missing.mat: cannot open .*No such "
                       r"file or directory"):
        rankmap.read_graph(tmp_path / "missing.mat")
    with pytest.raises(ValueError, match=r"not a regular file"):
        rankmap.read_graph(tmp_path)
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                   "1 2 -4\n")
    with pytest.raises(ValueError, match=r"bad.mtx:3"):
        rankmap.map(TOPO, bad)
    with pytest.raises(ValueError, match=r"graphs: unknown format 'xls'"):
        rankmap.read_graph(bad, format="xls")


def test_bad_mappings_for_cost():
    a = np.ones((4, 4))
    with pytest.raises(ValueError, match=r"expected 4 entries .* found 3"):
        rankmap.cost(TOPO, a, [0, 1, 2])
    with pytest.raises(ValueError, match=r"process 2 on leaf 7, outside"):
        rankmap.cost(TOPO, a, [0, 1, 7, 3])
    with pytest.raises(ValueError, match=r"expected an integer array"):
        rankmap.cost(TOPO, a, [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"leaf 1"):
        rankmap.cost(TOPO, a, [0, 1, 1, 3])  # two processes on one slot


def test_oversized_graphs_are_refused_before_allocation():
    huge = scipy.sparse.coo_matrix(([1.0], ([0], [1])), shape=(2**31, 2**31))
    with pytest.raises(ValueError, match=r"2147483648 vertices"):
        rankmap.map(TOPO, huge)
    with pytest.raises(ValueError, match=r"more than the memory budget"):
        rankmap.graph(scipy.sparse.coo_matrix(([1.0], ([0], [1])),
                                              shape=(2**31 - 1, 2**31 - 1)))


def test_the_extension_checks_its_own_arguments():
    # Called directly, bypassing the package's checks: still no crash.
    one = np.array([0], dtype=np.int64)
    with pytest.raises(ValueError, match=r"different lengths"):
        _rankmap.graph_from_arcs(2, one, np.array([], dtype=np.int64),
                                 np.array([1.0]), None)
    with pytest.raises(ValueError, match=r"out of range"):
        _rankmap.graph_from_arcs(2, one, np.array([5], dtype=np.int64),
                                 np.array([1.0]), None)
    with pytest.raises(ValueError, match=r"negative, NaN or infinite|weight"):
        _rankmap.graph_from_arcs(2, one, np.array([1], dtype=np.int64),
                                 np.array([np.nan]), None)
    with pytest.raises(ValueError, match=r"vwgt: expected 2 vertex weights"):
        _rankmap.graph_from_arcs(2, one, one, np.array([1.0]),
                                 np.array([1.0]))
    tree = rankmap.topology(TOPO)
    graph = rankmap.graph(np.ones((4, 4)))
    with pytest.raises(ValueError, match=r"expected 4 entries"):
        _rankmap.cost(tree, graph, np.array([0, 1], dtype=np.int64), None)
    with pytest.raises(ValueError, match=r"process 1 on leaf -3"):
        _rankmap.cost(tree, graph, np.array([0, -3, 1, 2], dtype=np.int64),
                      None)
