"""The Python module and the rankmap command give the same mapping and the
same J (to the last bit) for the same inputs and seed."""

import json
import subprocess

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import rankmap


def run_cli(cli, topology, comm, *args):
    out = subprocess.run(
        [str(cli), "map", "--topology", topology, "--comm", str(comm),
         "--format", "json", "--quiet", *args],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return result["mapping"], result["j"]


def write_mtx(path, a):
    """A general MatrixMarket file holding every stored entry of `a`."""
    coo = scipy.sparse.coo_matrix(a)
    lines = ["%%MatrixMarket matrix coordinate real general",
             f"{coo.shape[0]} {coo.shape[1]} {coo.nnz}"]
    lines += [f"{i + 1} {j + 1} {w!r}"
              for i, j, w in zip(coo.row, coo.col, coo.data)]
    path.write_text("\n".join(lines) + "\n")


def write_metis(path, xadj, adjncy, adjwgt):
    n = len(xadj) - 1
    rows = [" ".join(f"{adjncy[k] + 1} {adjwgt[k]!r}"
                     for k in range(xadj[u], xadj[u + 1])) for u in range(n)]
    path.write_text(f"{n} {len(adjncy) // 2} 001\n" + "\n".join(rows) + "\n")


def write_edges(path, g):
    path.write_text("".join(f"{u} {v} {w!r}\n"
                            for u, v, w in g.edges(data="weight")))


TOPOLOGIES = ["tleaf 3 4 100 4 10 4 1", "pack:2 core:8 pu:2"]
RUNS = [
    ("portfolio", "default", 1),
    ("tm", "default", 3),
    ("multisection", "strong", 5),
    ("scotch", "default", 1),
    ("mpipp", "fast", 9),
    ("random", "default", 12345),
]


@pytest.fixture(scope="module")
def traffic():
    """Asymmetric random traffic between 64 processes, real weights."""
    rng = np.random.default_rng(7)
    a = scipy.sparse.random(64, 64, density=0.08, random_state=7,
                            data_rvs=lambda k: rng.uniform(1, 1e6, k))
    a.setdiag(0)
    a.eliminate_zeros()
    return a.tocsr()


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("algorithm, preset, seed", RUNS)
def test_matrix_matches_matrixmarket_file(cli, tmp_path, traffic, topology,
                                          algorithm, preset, seed):
    path = tmp_path / "traffic.mtx"
    write_mtx(path, traffic)
    mapping, j = rankmap.map(topology, traffic, algorithm=algorithm,
                             preset=preset, seed=seed)
    cli_mapping, cli_j = run_cli(cli, topology, path, "--algorithm",
                                 algorithm, "--preset", preset, "--seed",
                                 str(seed))
    assert mapping.tolist() == cli_mapping
    assert j == cli_j
    # The file path itself goes through the same reader.
    assert rankmap.map(topology, path, algorithm=algorithm, preset=preset,
                       seed=seed).mapping.tolist() == cli_mapping


def test_csr_arrays_match_metis_file(cli, tmp_path, traffic):
    sym = (traffic + traffic.T).tocsr()
    sym.sort_indices()
    path = tmp_path / "traffic.graph"
    write_metis(path, sym.indptr, sym.indices, sym.data)
    for algorithm in ("portfolio", "tm"):
        mapping, j = rankmap.map(TOPOLOGIES[0],
                                 (sym.indptr, sym.indices, sym.data),
                                 algorithm=algorithm, seed=4)
        cli_mapping, cli_j = run_cli(cli, TOPOLOGIES[0], path, "--algorithm",
                                     algorithm, "--seed", "4")
        assert (mapping.tolist(), j) == (cli_mapping, cli_j)


def test_networkx_matches_edge_list(cli, tmp_path):
    g = nx.random_regular_graph(4, 48, seed=3)
    for k, (u, v) in enumerate(g.edges):
        g.edges[u, v]["weight"] = float(1 + (k * 37) % 11)
    path = tmp_path / "g.edges"
    write_edges(path, g)
    ordered = nx.Graph()  # process i is node i, as in the edge list
    ordered.add_nodes_from(range(48))
    ordered.add_edges_from(g.edges(data=True))
    mapping, j = rankmap.map("pack:2 core:12 pu:2", ordered)
    cli_mapping, cli_j = run_cli(cli, "pack:2 core:12 pu:2", path)
    assert (mapping.tolist(), j) == (cli_mapping, cli_j)


def test_slots_allowed_and_n_to_1_match(cli, tmp_path, traffic):
    path = tmp_path / "traffic.mtx"
    write_mtx(path, traffic)
    topology = TOPOLOGIES[0]
    cases = [
        ({"slots_per_leaf": 2}, ["--oversubscribe", "2"]),
        ({"allowed": "0-47"}, ["--allowed", "0-47"]),  # 64 on 48: n-to-1
        ({"allowed": range(0, 64, 2)}, ["--allowed", ",".join(map(str, range(0, 64, 2)))]),
    ]
    for kwargs, flags in cases:
        mapping, j = rankmap.map(topology, traffic, seed=2, **kwargs)
        cli_mapping, cli_j = run_cli(cli, topology, path, "--seed", "2",
                                     *flags)
        assert (mapping.tolist(), j) == (cli_mapping, cli_j), kwargs


def test_a_preset_alone_runs_its_own_algorithm_in_both(cli, tmp_path, traffic):
    path = tmp_path / "traffic.mtx"
    write_mtx(path, traffic)
    for preset in ("fast", "default", "strong"):
        mapping, j = rankmap.map(TOPOLOGIES[0], traffic, preset=preset)
        cli_mapping, cli_j = run_cli(cli, TOPOLOGIES[0], path, "--preset",
                                     preset)
        assert (mapping.tolist(), j) == (cli_mapping, cli_j), preset


def test_message_counts_and_present_orders_match(cli, tmp_path):
    """Bytes and message counts on a tree with links (the time objective),
    with and without a present order, read from files beside each other as
    the profiler writes them, or given as matrices."""
    topology = "tleaf 3 2 10Gbps:2us 4 25Gbps:1us 6 40GBps:0.5us"
    rng = np.random.default_rng(11)
    n = 48
    counts = np.triu(rng.integers(0, 4, (n, n)) * (rng.random((n, n)) < 0.15),
                     1) * rng.integers(1, 500, (n, n))
    sizes = rng.choice([8.0, 64.0, 65536.0], (n, n))
    traffic = counts * sizes
    path = tmp_path / "app.mtx"
    write_mtx(path, traffic)
    (tmp_path / "app.msgs.mat").write_text(
        "\n".join(" ".join(str(int(x)) for x in row) for row in counts) + "\n")
    present = rng.permutation(n)
    (tmp_path / "now.txt").write_text("\n".join(map(str, present)) + "\n")
    for present_args, kwargs in [([], {}),
                                 (["--present", str(tmp_path / "now.txt")],
                                  {"present": present}),
                                 (["--objective", "j"], {"objective": "j"})]:
        cli_mapping, cli_j = run_cli(cli, topology, path, "--seed", "3",
                                     *present_args)
        from_file = rankmap.map(topology, path, seed=3, **kwargs)
        in_memory = rankmap.map(topology, traffic, messages=counts, seed=3,
                                **kwargs)
        assert (from_file.mapping.tolist(), from_file.j) == (cli_mapping,
                                                              cli_j)
        assert (in_memory.mapping.tolist(), in_memory.j) == (cli_mapping,
                                                              cli_j)
        want = "J" if kwargs.get("objective") == "j" else "time"
        assert from_file.report["objective"] == want
