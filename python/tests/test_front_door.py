"""Message counts, the objective, the present order and the report through
the Python module, on the hand-computed case of tests/cli/objective_test.sh."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import rankmap

# Two hosts of two cores: one host 0.5 us and 40 GB/s, two hosts 1 + 1 us and
# 3.125 GB/s (25 Gb/s links).
TWO_HOSTS = "tleaf 2 2 25Gbps:1us 2 40GBps:0.5us"
# 0-1: 1,000 messages of 8 bytes; 0-2: one of 100,000 bytes; 2-3: one of 10.
# By bytes 0 belongs with 2, by time with 1.
BYTES = np.array([[0, 8000, 100000, 0], [0, 0, 0, 0], [0, 0, 0, 10],
                  [0, 0, 0, 0]], dtype=float)
COUNTS = np.array([[0, 1000, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]],
                  dtype=float)
# By hand (us): the present order 0 2 1 3 splits 0 from 1: 0-1 across hosts
# 1000 x 2 + 8000 / 3125 = 2002.56, 0-2 on a host 0.5 + 2.5, 2-3 across
# 2 + 0.0032. Pairs 0, 1 and 2, 3 on one host each: 500 + 0.2, 2 + 32,
# 0.5 + 0.00025.
PRESENT_T = 2007.5632e-6
BEST_T = 534.70025e-6


def host(mapping, process):
    return int(mapping[process]) // 2


def test_counts_choose_by_time_and_the_report_says_why():
    result = rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS)
    mapping, j = result  # still unpacks as two
    assert host(mapping, 0) == host(mapping, 1)
    # The identity keeps 0 with 1 already: kept.
    assert mapping.tolist() == [0, 1, 2, 3]
    assert result.report["verdict"] == "kept"
    assert result.report["objective"] == "time"
    assert result.report["present_cost"] == pytest.approx(BEST_T, abs=1e-12)
    # J is bytes x distance whatever the objective.
    assert j == rankmap.cost(TWO_HOSTS, BYTES, mapping).j

    moved = rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS,
                        present=[0, 2, 1, 3])
    assert moved.report["verdict"] == "replaced"
    assert moved.report["present_cost"] == pytest.approx(PRESENT_T, abs=1e-12)
    assert moved.report["chosen_cost"] == pytest.approx(BEST_T, abs=1e-12)
    assert moved.report["moved"] == int(
        (moved.mapping != np.array([0, 2, 1, 3])).sum())
    assert host(moved.mapping, 0) == host(moved.mapping, 1)

    # A margin above the 73% lead keeps the present order.
    kept = rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS, present=[0, 2, 1, 3],
                       keep_margin=0.8)
    assert kept.mapping.tolist() == [0, 2, 1, 3]
    assert kept.report["verdict"] == "kept"

    # By J, or without counts, 0 goes with 2.
    by_j = rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS, objective="j")
    assert host(by_j.mapping, 0) == host(by_j.mapping, 2)
    assert by_j.report["objective"] == "J"
    plain = rankmap.map(TWO_HOSTS, BYTES)
    assert host(plain.mapping, 0) == host(plain.mapping, 2)
    # An explicit baseline weighs nothing.
    assert rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS,
                       algorithm="identity").report["verdict"] == "not weighed"


def test_every_graph_form_carries_counts():
    want = rankmap.map(TWO_HOSTS, BYTES, messages=COUNTS,
                       present=[0, 2, 1, 3]).mapping.tolist()
    # scipy, a Graph, a CSR tuple with counts per arc, networkx attributes.
    sparse = scipy.sparse.csr_matrix(COUNTS)
    assert rankmap.map(TWO_HOSTS, scipy.sparse.csr_matrix(BYTES),
                       messages=sparse,
                       present=[0, 2, 1, 3]).mapping.tolist() == want
    g = rankmap.graph(BYTES, messages=COUNTS)
    assert g.has_messages and g.total_messages == 1002
    assert rankmap.map(TWO_HOSTS, g,
                       present=[0, 2, 1, 3]).mapping.tolist() == want
    xadj = [0, 2, 3, 5, 6]
    adjncy = [1, 2, 0, 0, 3, 2]
    adjwgt = [8000, 100000, 8000, 100000, 10, 10]
    adjmsg = [1000, 1, 1000, 1, 1, 1]
    csr = rankmap.graph((xadj, adjncy, adjwgt), messages=adjmsg)
    assert csr.adjmsg.tolist() == g.adjmsg.tolist()
    nxg = nx.Graph()
    nxg.add_edge(0, 1, bytes=8000, msgs=1000)
    nxg.add_edge(0, 2, bytes=100000, msgs=1)
    nxg.add_edge(2, 3, bytes=10, msgs=1)
    from_nx = rankmap.graph(nxg, weight="bytes", messages="msgs")
    assert from_nx.adjmsg.tolist() == g.adjmsg.tolist()
    assert from_nx.adjwgt.tolist() == g.adjwgt.tolist()
    # False drops the counts a Graph carries: then J decides.
    dropped = rankmap.graph(g, messages=False)
    assert not dropped.has_messages and dropped.adjmsg is None


def test_files_read_the_counts_beside_them_as_the_command_does(tmp_path):
    app = tmp_path / "app.mat"
    app.write_text("\n".join(" ".join(f"{x:g}" for x in row)
                             for row in BYTES) + "\n")
    (tmp_path / "app.msgs.mat").write_text("\n".join(
        " ".join(f"{x:g}" for x in row) for row in COUNTS) + "\n")
    assert rankmap.read_graph(app).total_messages == 1002
    assert not rankmap.read_graph(app, messages=False).has_messages
    other = tmp_path / "counts.mat"
    other.write_text((tmp_path / "app.msgs.mat").read_text())
    assert rankmap.read_graph(app, messages=other).total_messages == 1002
    with_counts = rankmap.map(TWO_HOSTS, app, present=[0, 2, 1, 3])
    assert with_counts.report["objective"] == "time"
    assert host(with_counts.mapping, 0) == host(with_counts.mapping, 1)
    without = rankmap.map(TWO_HOSTS, app, messages=False)
    assert host(without.mapping, 0) == host(without.mapping, 2)


def test_present_orders_are_numbered_as_map_returns_them():
    # Leaves 1, 2, 3 allowed with two slots each: map() names them 1..3.
    a = np.zeros((4, 4))
    a[0, 2] = a[1, 3] = 100.0
    result = rankmap.map("tleaf 2 2 10 2 1", a, allowed=[1, 2, 3],
                         slots_per_leaf=2, present=[1, 1, 2, 3])
    assert set(result.mapping.tolist()) <= {1, 2, 3}
    assert result.report["verdict"] in ("kept", "replaced")
    with pytest.raises(ValueError, match="present: process 0 on leaf 0, which "
                       "is not among the allowed leaves"):
        rankmap.map("tleaf 2 2 10 2 1", a, allowed=[1, 2, 3],
                    slots_per_leaf=2, present=[0, 1, 2, 3])


def test_bad_names_and_values_are_refused():
    with pytest.raises(ValueError, match=r"unknown objective 'fastest' "
                       r"\(expected auto, j, time\)"):
        rankmap.map(TWO_HOSTS, BYTES, objective="fastest")
    with pytest.raises(ValueError, match="the time objective needs message "
                       "counts"):
        rankmap.map(TWO_HOSTS, BYTES, objective="time")
    with pytest.raises(ValueError, match=r"keep_margin: expected a fraction in "
                       r"\[0, 1\), found 1.5"):
        rankmap.map(TWO_HOSTS, BYTES, keep_margin=1.5)
    with pytest.raises(ValueError, match="present order"):
        rankmap.map(TWO_HOSTS, BYTES, present=[0, 0, 1, 2])
    with pytest.raises(ValueError, match=r"present: expected 4 entries"):
        rankmap.map(TWO_HOSTS, BYTES, present=[0, 1])
    with pytest.raises(ValueError, match=r"messages: expected counts of 4 "
                       r"processes, found 3"):
        rankmap.map(TWO_HOSTS, BYTES, messages=np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"messages: entry \(0, 1\) is -1"):
        rankmap.map(TWO_HOSTS, BYTES, messages=-COUNTS)
    with pytest.raises(ValueError, match=r"messages: expected 2 counts"):
        rankmap.graph(([0, 1, 2], [1, 0]), messages=[1, 2, 3, 4, 5, 6])
    with pytest.raises(TypeError, match="objective: expected a string"):
        rankmap.map(TWO_HOSTS, BYTES, objective=1)
    assert rankmap.presets() == ["fast", "default", "strong"]
