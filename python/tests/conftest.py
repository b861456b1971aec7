"""Shared fixtures: the rankmap command and README.md, as python_test.sh
passes them from the Bazel runfiles."""

import os
import pathlib

import pytest


def _required_file(variable):
    path = os.environ.get(variable)
    if not path or not os.path.isfile(path):
        pytest.fail(f"{variable} must name a file (run the tests with "
                    "./bazelw test //python:python_test)")
    return pathlib.Path(path)


@pytest.fixture(scope="session")
def cli():
    return _required_file("RANKMAP_CLI")


@pytest.fixture(scope="session")
def readme():
    return _required_file("RANKMAP_README")
