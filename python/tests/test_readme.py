"""The Python example of README.md runs as printed there."""

import re

import numpy as np

import rankmap


def test_readme_python_example(readme):
    text = readme.read_text()
    section = text.split("## Use from C, C++ (pkg-config/CMake) and Python")[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "README.md has no python block in that section"
    code = blocks[0]
    assert len(code.strip().splitlines()) == 3, code
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    mapping, j = scope["mapping"], scope["j"]
    assert sorted(mapping.tolist()) == list(range(len(mapping)))
    # J is what cost() computes for that mapping of that graph.
    topology = re.search(r'rankmap\.map\("([^"]+)"', code).group(1)
    graph_name = re.search(r'rankmap\.map\("[^"]+", (\w+)', code).group(1)
    report = rankmap.cost(topology, scope[graph_name], mapping)
    assert report.j == j
    identity = rankmap.cost(topology, scope[graph_name],
                            np.arange(len(mapping)))
    assert j <= identity.j


def test_readme_time_example(readme):
    """The second example: message counts and a present order, replaced by
    the mapping that keeps the chatty pair on one host (T by hand in
    test_front_door.py)."""
    text = readme.read_text()
    section = text.split("## Use from C, C++ (pkg-config/CMake) and Python")[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 2, "README.md has no second python block there"
    scope = {}
    exec(compile(blocks[1], "README.md", "exec"), scope)
    report = scope["result"].report
    assert report["verdict"] == "replaced" and report["objective"] == "time"
    assert abs(report["present_cost"] - 2007.5632e-6) < 1e-12
    assert abs(report["chosen_cost"] - 534.70025e-6) < 1e-12
    mapping = scope["result"].mapping
    assert mapping[0] // 2 == mapping[1] // 2
