"""rankmap's Python API on hand-computed cases and properties."""

import json
import sys
import threading
import time

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import rankmap

# Two nodes of two cores: distance 1 inside a node, 11 across.
TWO_BY_TWO = "tleaf 2 2 10 2 1"


def pairs_graph():
    """Processes 0-2 and 1-3 exchange 100, 0-1 and 2-3 exchange 1."""
    a = np.zeros((4, 4))
    a[0, 2] = a[1, 3] = 100.0
    a[0, 1] = a[2, 3] = 1.0
    return a


def test_map_puts_heavy_pairs_on_one_node():
    mapping, j = rankmap.map(TWO_BY_TWO, scipy.sparse.csr_matrix(pairs_graph()))
    assert mapping.dtype == np.int32
    assert sorted(mapping.tolist()) == [0, 1, 2, 3]
    assert mapping[0] // 2 == mapping[2] // 2
    assert mapping[1] // 2 == mapping[3] // 2
    # 100 * 1 + 100 * 1 inside the nodes, 1 * 11 + 1 * 11 across.
    assert j == 222.0


def test_cost_of_identity_by_hand():
    report = rankmap.cost(TWO_BY_TWO, pairs_graph(), [0, 1, 2, 3])
    assert report.j == 1 * 1 + 1 * 1 + 100 * 11 + 100 * 11
    # Two links inside a node, four across.
    assert report.hop_bytes == 1 * 2 + 1 * 2 + 100 * 4 + 100 * 4
    assert report.level_volume.tolist() == [200.0, 2.0, 0.0]
    # Each node's uplink carries both heavy pairs; leaves are ids 0-3.
    assert report.max_link_volume == 200.0
    assert report.max_link_node in (4, 5)


def test_both_directions_of_a_matrix_are_summed():
    a = pairs_graph()
    half = (a + a.T) / 2  # the same traffic, split over both directions
    g1 = rankmap.graph(a)
    g2 = rankmap.graph(scipy.sparse.coo_matrix(half))
    assert g1.edge_weight(0, 2) == g2.edge_weight(0, 2) == 100.0
    assert g1.xadj.tolist() == g2.xadj.tolist() == [0, 2, 4, 6, 8]
    assert g1.adjwgt.tolist() == g2.adjwgt.tolist()
    assert repr(g1) == "<rankmap.Graph: 4 vertices, 4 edges>"


def same_graph(g, h):
    return (g.xadj.tolist() == h.xadj.tolist() and
            g.adjncy.tolist() == h.adjncy.tolist() and
            g.adjwgt.tolist() == h.adjwgt.tolist())


def test_every_graph_form_gives_the_same_graph(tmp_path):
    a = pairs_graph()
    reference = rankmap.graph(a)
    sym = a + a.T
    csr = scipy.sparse.csr_matrix(sym)  # METIS style: both arcs weigh w
    undirected = nx.Graph()
    undirected.add_nodes_from(range(4))
    directed = nx.DiGraph()
    directed.add_nodes_from(range(4))
    for i, j in zip(*np.nonzero(a)):
        undirected.add_edge(int(i), int(j), bytes=a[i, j])
        directed.add_edge(int(j), int(i), bytes=a[i, j] / 4)
        directed.add_edge(int(i), int(j), bytes=a[i, j] * 3 / 4)
    mat = tmp_path / "pairs.mat"
    mat.write_text("\n".join(" ".join(repr(x) for x in row) for row in a))
    forms = [
        a.astype(np.int64),
        scipy.sparse.csr_array(a),
        scipy.sparse.lil_matrix(a),
        (csr.indptr, csr.indices, csr.data),
        (csr.indptr.astype(np.uint32), csr.indices.astype(np.int16), csr.data),
        undirected,
        directed,
        str(mat),
        mat,
        rankmap.read_graph(mat),
    ]
    for form in forms:
        g = rankmap.graph(form, weight="bytes")
        assert same_graph(g, reference), type(form)
        assert rankmap.map(TWO_BY_TWO, form, weight="bytes").j == 222.0


def test_csr_without_weights_counts_one_per_edge():
    xadj = np.array([0, 1, 2])
    adjncy = np.array([1, 0])
    g = rankmap.graph((xadj, adjncy))
    assert g.num_edges == 1 and g.edge_weight(0, 1) == 1.0


def test_networkx_nodes_of_any_kind_map_in_node_order():
    g = nx.Graph()
    g.add_edge("a", "c", weight=100.0)
    g.add_edge("b", "d", weight=100.0)
    g.add_edge("a", "b", weight=1.0)
    g.add_edge("c", "d", weight=1.0)
    # G.nodes order: a, c, b, d.
    mapping, j = rankmap.map(TWO_BY_TWO, g)
    assert j == 222.0
    assert mapping[0] // 2 == mapping[1] // 2  # a and c
    assert mapping[2] // 2 == mapping[3] // 2  # b and d
    # Without weights every edge weighs 1: any pairing costs 1 + 1 + 11 + 11.
    assert rankmap.map(TWO_BY_TWO, g, weight=None).j == 24.0


def test_topology_properties():
    t = rankmap.topology("tleaf 3 2 100 2 10 2 1")
    assert (t.num_leaves, t.num_slots, t.num_nodes, t.height) == (8, 8, 15, 3)
    assert t.balanced and t.arities == [2, 2, 2]
    assert t.levels == ["level0", "level1", "level2", "leaf"]
    assert t.tleaf() == "tleaf 3 2 100 2 10 2 1"
    assert (t.distance(0, 1), t.distance(0, 2), t.distance(0, 7)) == (1, 11, 111)
    tree = json.loads(t.json)
    assert tree["num_leaves"] == 8 and tree["root"]["cost"] == 111
    assert t.text.splitlines()[0] == "level0  cost 111  leaves [0, 8)  2 children"
    assert repr(t) == "<rankmap.Topology 'tleaf 3 2 100 2 10 2 1': 8 leaves>"
    hw = rankmap.topology("pack:2 core:4 pu:2")
    assert hw.num_leaves == 16 and hw.arities == [2, 4, 2]
    assert hw.levels[-1] == "PU"
    assert rankmap.topology("pack:2 core:4 pu:2", leaf="core").num_leaves == 8


def test_allowed_and_slots_per_leaf():
    t = rankmap.topology(TWO_BY_TWO, allowed=[0, 2])
    assert t.num_leaves == 2 and t.distance(0, 1) == 11
    assert t.leaf_ids == [0, 2]
    # map() names leaves in the whole machine's numbers; cost() takes them.
    m, j = rankmap.map(TWO_BY_TWO, pairs_graph(), allowed=[1, 2, 3],
                       slots_per_leaf=2)
    assert set(m.tolist()) <= {1, 2, 3}
    assert rankmap.cost(TWO_BY_TWO, pairs_graph(), m, allowed=[1, 2, 3],
                        slots_per_leaf=2).j == j
    with pytest.raises(ValueError, match="not among the allowed leaves"):
        rankmap.cost(TWO_BY_TWO, pairs_graph(), [0, 1, 2, 3], allowed=[1, 2, 3],
                     slots_per_leaf=2)
    assert rankmap.topology(TWO_BY_TWO, allowed="0-1").distance(0, 1) == 1
    m, j = rankmap.map(TWO_BY_TWO, pairs_graph(), allowed="0,1,2")
    # 4 processes on 3 slots: partitioned (n-to-1) within the default bound.
    assert np.bincount(m, minlength=3).max() <= 2
    # Two slots per leaf: each heavy pair shares a leaf (distance 0) and the
    # light pairs cross a node boundary or stay inside one.
    m, j = rankmap.map(TWO_BY_TWO, pairs_graph(), slots_per_leaf=2)
    assert m[0] == m[2] and m[1] == m[3] and j == 2.0
    slots = rankmap.topology(TWO_BY_TWO, slots_per_leaf=2)
    assert slots.num_slots == 8 and slots.capacity(3) == 2
    assert rankmap.map(slots, pairs_graph()).mapping.tolist() == m.tolist()


def test_n_to_1_with_vertex_weights():
    a = scipy.sparse.random(12, 12, density=0.4, random_state=5)
    vwgt = np.array([2.0, 1.0] * 6)
    m, j = rankmap.map(TWO_BY_TWO, a, vwgt=vwgt, imbalance=0.1)
    # Total 18 on 4 leaves: share 4.5, bound max(1.1 * 4.5, ceil(4.5)) = 5.
    assert np.bincount(m, weights=vwgt, minlength=4).max() <= 5
    report = rankmap.cost(TWO_BY_TWO, a, m, vwgt=vwgt, imbalance=0.1)
    assert report.j == j
    # Every metric, as `rankmap eval` prints for n-to-1 mappings: hop-bytes
    # by hand (links between two leaves: 0 on one leaf, 2 in one node, 4
    # across), the volume crossing the root and the volume inside leaves.
    coo = scipy.sparse.triu(a + a.T, k=1).tocoo()
    lu, lv = m[coo.row], m[coo.col]
    hops = np.where(lu == lv, 0, np.where(lu // 2 == lv // 2, 2, 4))
    assert report.hop_bytes == pytest.approx(float((coo.data * hops).sum()))
    assert report.level_volume[0] == pytest.approx(
        float(coo.data[hops == 4].sum()))
    assert report.level_volume[-1] == pytest.approx(
        float(coo.data[hops == 0].sum()))
    # One vertex heavier than any leaf's bound: no partition exists.
    heavy = np.ones(12)
    heavy[0] = 10
    with pytest.raises(ValueError, match=r"carries vertex weight 10 above its "
                       r"bound 6 \(imbalance 0.03\)"):
        rankmap.map(TWO_BY_TWO, a, vwgt=heavy)


def test_same_seed_same_mapping_and_threads_change_nothing():
    a = scipy.sparse.random(64, 64, density=0.1, random_state=2)
    topo = "tleaf 3 4 100 4 10 4 1"
    first = rankmap.map(topo, a, seed=11)
    again = rankmap.map(topo, a, seed=11, threads=2)
    assert first.mapping.tolist() == again.mapping.tolist()
    assert first.j == again.j
    r1 = rankmap.map(topo, a, algorithm="random", seed=1).mapping
    r2 = rankmap.map(topo, a, algorithm="random", seed=2).mapping
    assert r1.tolist() != r2.tolist()


def test_algorithms_lists_every_name_map_accepts():
    names = rankmap.algorithms()
    assert {"portfolio", "tm", "multisection", "identity", "scotch"} <= set(names)
    for name in names:
        m, _ = rankmap.map(TWO_BY_TWO, pairs_graph(), algorithm=name)
        assert sorted(m.tolist()) == [0, 1, 2, 3]
    assert rankmap.map(TWO_BY_TWO, pairs_graph(),
                       algorithm="identity").mapping.tolist() == [0, 1, 2, 3]


def test_mapping_releases_the_gil():
    # A ticker thread counts while the engine works. With a switch interval
    # far longer than the test, a thread holding the GIL only lets it go when
    # it blocks or calls code that releases it: the ticker can advance during
    # rankmap.map only if the engine runs without the GIL. Counts, not times.
    a = scipy.sparse.random(512, 512, density=8 / 512, random_state=3)
    graph = rankmap.graph(a)
    tree = rankmap.topology("tleaf 3 8 100 8 10 8 1")
    # A first small map, so that nothing is left to import (file reads
    # release the GIL) on the way into the engine.
    rankmap.map(TWO_BY_TWO, pairs_graph())
    ticks, stop = [0], threading.Event()

    def tick():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0)  # releases the GIL, so the main thread goes on

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    ticker = threading.Thread(target=tick)
    try:
        ticker.start()
        before = ticks[0]
        rankmap.map(tree, graph, algorithm="mpipp", preset="strong")
        during = ticks[0] - before
    finally:
        stop.set()
        ticker.join()
        sys.setswitchinterval(interval)
    assert during > 0, "no tick while the engine ran: it held the GIL"
