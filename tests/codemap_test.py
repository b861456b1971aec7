#!/usr/bin/python3
"""The README's codemap against the BUILD files, so that it cannot drift.

Every Bazel package (a directory with a BUILD file, outside third_party/ and
the workspace root) must be named in the first column of the codemap table,
and the table must name no package that does not exist. Each row's "depends
on" column must name exactly the rankmap packages that the row's packages
depend on: the `deps` of their rules, test rules and testonly rules left out
(tests may use any package), rules declared by macros in .bzl files included;
rows whose column says "anything" are not checked. No two packages may depend
on each other, directly or through others (a front door over its own
subpackages is layered, not circular).

Each row's "front doors" column names the headers other packages may include
(`tree.h`, relative to the row's first package, or a path from the workspace
root), or says "all of it". The non-test sources of every package (the srcs
and hdrs of rules that are neither tests nor testonly) may include a header of
another package only through one of its front doors: no package is included
around its front door. A package and the packages below it (core/ and
core/model/, core/strategies/, ...) are one family, which includes its own
headers freely; a new package needs only its row. Doors a cell keeps to some
clients ("`x.h` for `api`") are doors here: Bazel visibility keeps them to
those clients.

The BUILD files are evaluated as the Starlark subset they are written in, with
every rule replaced by a recorder. The test reads the workspace the README it
is given lives in (its runfile resolves to the source tree), and is tagged
external so that Bazel runs it every time rather than trusting a cached pass
that predates a new package.

    codemap_test.py README.md [WORKSPACE_ROOT]
"""

import os
import re
import sys
import types

EXCLUDED_DIRS = {"third_party"}


class Package:
    """The rules one BUILD file declares: (kind, attributes) pairs."""

    def __init__(self, name):
        self.name = name
        self.rules = []


class Evaluator:
    """Runs BUILD and .bzl files with recorders in place of rules."""

    def __init__(self, root):
        self.root = root
        self.current = None
        self.bzl_cache = {}

    def recorder(self, kind):
        def record(*args, **kwargs):
            if self.current is not None:
                self.current.rules.append((kind, kwargs))
        return record

    def build_functions(self, directory):
        anything = _Anything()
        native = types.SimpleNamespace()
        for kind in _KNOWN_RULES:
            setattr(native, kind, self.recorder(kind))
        native.package_name = lambda: self.current.name if self.current else ""
        namespace = {
            "__builtins__": __builtins__,
            "native": native,
            "glob": lambda *args, **kwargs: [],
            "select": _select,
            "rule": lambda *args, **kwargs: self.recorder("rule"),
            "macro": lambda *args, **kwargs: self.recorder("macro"),
            "provider": lambda *args, **kwargs: anything,
            "struct": lambda **kwargs: types.SimpleNamespace(**kwargs),
            "depset": lambda *args, **kwargs: [],
            "fail": _fail,
            "package_name": native.package_name,
            "Label": lambda label: label,
            "attr": anything,
            "CcInfo": anything,
            "DefaultInfo": anything,
            "cc_common": anything,
        } | {kind: self.recorder(kind) for kind in _KNOWN_RULES}
        namespace["load"] = lambda label, *names, **aliases: self.load(
            directory, label, names, aliases, namespace)
        return namespace

    def run(self, path, namespace):
        """Executes a Starlark file; unknown top-level names become rules."""
        source = open(path, encoding="utf-8").read()
        code = compile(source, path, "exec")
        for _ in range(100):
            snapshot = len(self.current.rules) if self.current else 0
            try:
                exec(code, namespace)  # noqa: S102 (trusted repository files)
                return namespace
            except NameError as e:
                name = re.search(r"name '(\w+)' is not defined", str(e))
                if not name:
                    raise
                # A rule this evaluator did not know: record it like the rest.
                namespace[name.group(1)] = self.recorder(name.group(1))
                if self.current:
                    del self.current.rules[snapshot:]
        raise RuntimeError(f"{path}: too many unknown names")

    def load(self, directory, label, names, aliases, caller):
        if label.startswith("//"):
            package, _, file = label[2:].partition(":")
            path = os.path.join(self.root, package, file)
        elif label.startswith(":"):
            path = os.path.join(directory, label[1:])
        else:
            return  # an external repository's rules: nothing of ours
        if path not in self.bzl_cache:
            self.bzl_cache[path] = self.run(path, self.build_functions(os.path.dirname(path)))
        module = self.bzl_cache[path]
        for name in names:
            caller[name] = module[name]
        for alias, name in aliases.items():
            caller[alias] = module[name]

    def package(self, name):
        self.current = Package(name)
        directory = os.path.join(self.root, name)
        build = os.path.join(directory, "BUILD")
        if not os.path.exists(build):
            build = os.path.join(directory, "BUILD.bazel")
        self.run(build, self.build_functions(directory))
        package, self.current = self.current, None
        return package


_KNOWN_RULES = [
    "alias", "cc_binary", "cc_import", "cc_library", "cc_test",
    "config_setting", "exports_files", "filegroup", "genquery", "genrule",
    "java_binary", "java_library", "package", "py_binary", "py_library",
    "py_test", "sh_binary", "sh_library", "sh_test", "test_suite",
]


class _Anything:
    """Stands for any Starlark value: attribute access and calls give more."""

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self


def _select(choices, **kwargs):
    out = []
    for value in choices.values():
        out += value if isinstance(value, list) else []
    return out


def _fail(*args, **kwargs):
    raise RuntimeError("fail(): " + " ".join(map(str, args)))


def find_packages(root):
    """Every directory below root with a BUILD file, relative, sorted."""
    packages = []
    for directory, subdirs, files in os.walk(root):
        rel = os.path.relpath(directory, root)
        subdirs[:] = sorted(
            d for d in subdirs
            if not d.startswith((".", "bazel-")) and
            not (rel == "." and d in EXCLUDED_DIRS))
        if rel != "." and ("BUILD" in files or "BUILD.bazel" in files):
            packages.append(rel.replace(os.sep, "/"))
    return sorted(packages)


def label_package(label, own):
    """The rankmap package a dependency label names, or None (external,
    third_party)."""
    if not isinstance(label, str) or label.startswith("@"):
        return None
    if label.startswith(":") or not label.startswith("//"):
        return own
    package = label[2:].split(":")[0]
    if package.split("/")[0] in EXCLUDED_DIRS:
        return None
    return package


def package_deps(package):
    """Packages the non-test rules of a package depend on (itself left out)."""
    deps = set()
    for kind, attrs in package.rules:
        if kind.endswith("_test") or attrs.get("testonly"):
            continue
        values = attrs.get("deps", [])
        if not isinstance(values, list):
            continue
        for label in values:
            dep = label_package(label, package.name)
            if dep is not None and dep != package.name:
                deps.add(dep)
    return deps


def find_cycle(deps):
    """One cycle of the package graph as [a, b, ..., a], or None."""
    state = {}  # package -> 1 on the current path, 2 done

    def visit(node, path):
        state[node] = 1
        path.append(node)
        for dep in sorted(deps.get(node, ())):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep, path)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(deps):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


def codemap_rows(readme):
    """(line number, packages named, depends-on cell, front-doors cell) of each
    table row."""
    lines = open(readme, encoding="utf-8").read().splitlines()
    try:
        start = lines.index("## Codemap")
    except ValueError:
        sys.exit(f"{readme}: no '## Codemap' section")
    rows, header = [], None
    for number, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue
        names = [n.rstrip("/") for n in re.findall(r"`([^`]+)`", cells[0])
                 if n.endswith("/")]
        depends = cells[header.index("depends on")]
        doors = (cells[header.index("front doors")]
                 if "front doors" in header else "all of it")
        rows.append((number, names, depends, doors))
    if header is None or "depends on" not in header:
        sys.exit(f"{readme}: the codemap table has no 'depends on' column")
    return rows


def check(readme, root):
    problems = []
    packages = find_packages(root)
    rows = codemap_rows(readme)
    named = {}
    for number, names, _, _ in rows:
        for name in names:
            if name in named:
                problems.append(f"README.md:{number}: `{name}/` is named "
                                f"again (first on line {named[name]})")
            named.setdefault(name, number)
    for name in packages:
        if name not in named:
            problems.append(f"README.md: the codemap does not name package "
                            f"`{name}/` ({name}/BUILD)")
    for name, number in named.items():
        if name not in packages:
            problems.append(f"README.md:{number}: the codemap names `{name}/`, "
                            "which is not a package (no BUILD file)")
    evaluator = Evaluator(root)
    deps = {name: package_deps(evaluator.package(name)) for name in packages}
    cycle = find_cycle(deps)
    if cycle:
        problems.append("packages depend on each other: " +
                        " -> ".join(f"`{n}/`" for n in cycle))
    for number, names, depends, _ in rows:
        if "anything" in depends or not all(n in deps for n in names):
            continue
        actual = set().union(*(deps[n] for n in names)) - set(names)
        listed = {n.rstrip("/") for n in re.findall(r"`([^`]+)`", depends)}
        unknown = sorted(n for n in listed if n not in deps)
        if unknown:
            problems.append(f"README.md:{number}: `{', '.join(unknown)}` in "
                            "'depends on' is no package")
        listed -= set(unknown)
        row = ", ".join(f"`{n}/`" for n in names)
        for missing in sorted(actual - listed):
            problems.append(f"README.md:{number}: the BUILD deps of {row} "
                            f"depend on `{missing}`; 'depends on' does not "
                            "list it")
        for extra in sorted(listed - actual):
            problems.append(f"README.md:{number}: 'depends on' lists "
                            f"`{extra}`, but the BUILD deps of {row} do not "
                            "depend on it")
    problems += check_front_doors(root, packages, rows, evaluator)
    return packages, problems


def front_doors(rows, packages):
    """Package -> set of header paths other packages may include, or None for
    all of them. A row's doors belong to its first package; every other
    package of the row has none (unless a door names it by path)."""
    doors = {name: set() for name in packages}
    for _, names, _, cell in rows:
        if not names:
            continue
        if "all of it" in cell:
            for name in names:
                doors[name] = None
            continue
        for item in re.findall(r"`([^`]+)`", cell):
            if not item.endswith(".h"):
                continue  # a module or a library file, not a header
            path = item if "/" in item and owner(item, packages) else \
                f"{names[0]}/{item}"
            pkg = owner(path, packages)
            if pkg is not None and doors.get(pkg, set()) is not None:
                doors.setdefault(pkg, set()).add(path)
    return doors


def owner(path, packages):
    """The package a workspace path lies in: the longest package prefix."""
    best = None
    for name in packages:
        if path.startswith(name + "/") and (best is None or len(name) > len(best)):
            best = name
    return best


def family(package):
    return package.split("/")[0]


def source_files(package):
    """The files of the package's rules that are neither tests nor testonly:
    srcs and hdrs as paths from the workspace root."""
    files = set()
    for kind, attrs in package.rules:
        if kind.endswith("_test") or attrs.get("testonly"):
            continue
        for attr in ("srcs", "hdrs"):
            values = attrs.get(attr, [])
            if not isinstance(values, list):
                continue
            for label in values:
                if not isinstance(label, str) or label.startswith("@"):
                    continue
                if label.startswith("//"):
                    pkg, _, name = label[2:].partition(":")
                else:
                    pkg, name = package.name, label.lstrip(":")
                if name.endswith((".h", ".cc", ".c")):
                    files.add(f"{pkg}/{name}")
    return files


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check_front_doors(root, packages, rows, evaluator):
    doors = front_doors(rows, packages)
    problems = []
    for name in packages:
        for path in sorted(source_files(evaluator.package(name))):
            full = os.path.join(root, path)
            if not os.path.exists(full):
                continue
            text = open(full, encoding="utf-8", errors="replace").read()
            for m in INCLUDE.finditer(text):
                header = m.group(1)
                if not os.path.exists(os.path.join(root, header)):
                    continue  # a system or generated header
                target = owner(header, packages)
                if target is None or family(target) == family(name):
                    continue
                allowed = doors.get(target, set())
                if allowed is None or header in allowed:
                    continue
                line = text.count("\n", 0, m.start()) + 1
                listed = ", ".join(sorted(d.rsplit("/", 1)[-1]
                                          for d in allowed)) or "none"
                problems.append(f"{path}:{line}: includes `{header}` around "
                                f"the front doors of `{target}/` ({listed})")
    return problems


def self_test():
    """The checker on a small workspace, in order and drifted: it must see
    each kind of drift, or the real check proves nothing."""
    import tempfile  # noqa: PLC0415 (only here)
    files = {
        "WORKSPACE": "",
        "third_party/system/BUILD": 'cc_library(name = "absl")\n',
        # a depends on b; its test on c does not count.
        "a/BUILD": 'cc_library(name = "x", srcs = ["x.cc"], deps = ["//b:y", '
                   '"//third_party/system:absl", ":x2"])\n'
                   'cc_library(name = "x2")\n'
                   '[cc_test(name = n, srcs = [n + "_test.cc"], '
                   'deps = ["//c:z"]) for n in ["t"]]\n',
        # a's source goes through b's front door; its test may go around it.
        "a/x.cc": '#include "b/y.h"\n#include "a/own.h"\n#include <vector>\n',
        "a/own.h": "",
        "a/t_test.cc": '#include "b/y.h"\n#include "b/z.h"\n',
        # b depends on c through a macro of a .bzl file.
        "b/BUILD": 'load(":m.bzl", "m")\nm(name = "y")\n',
        "b/m.bzl": 'def m(name):\n'
                   '    native.cc_library(name = name, hdrs = ["y.h", "z.h"], '
                   'deps = ["//c:z"])\n',
        "b/y.h": "",
        "b/z.h": "",
        # c's testonly library depends on a: not counted.
        "c/BUILD": 'cc_library(name = "z")\n'
                   'cc_library(name = "f", testonly = True, deps = ["//a:x"])\n',
    }
    table = ("## Codemap\n\n| package | what | front doors | depends on |\n"
             "|---|---|---|---|\n"
             "| `a/` | x | | `b`, abseil |\n| `b/` | y | `y.h`, `z.h` | `c` |\n"
             "| `c/` | z | all of it | |\n")
    drifts = [  # (row, drifted row, the problem it must cause, only it)
        ("| `c/` | z | all of it | |\n", "", "does not name package `c/`",
         False),
        ("| `b/` | y | `y.h`, `z.h` | `c` |\n",
         "| `b/`, `d/` | y | `y.h`, `z.h` | `c` |\n",
         "names `d/`, which is not a package", False),
        ("| `a/` | x | | `b`, abseil |\n", "| `a/` | x | | `b`, `c` |\n",
         "lists `c`, but the BUILD deps of `a/` do not depend on it", False),
        ("| `b/` | y | `y.h`, `z.h` | `c` |\n", "| `b/` | y | `y.h`, `z.h` | |\n",
         "the BUILD deps of `b/` depend on `c`", False),
        ("| `b/` | y | `y.h`, `z.h` | `c` |\n", "| `b/` | y | `z.h` | `c` |\n",
         "a/x.cc:1: includes `b/y.h` around the front doors of `b/` (z.h)",
         True),  # a's test and its own header are not problems
    ]
    # c's library on a closes a cycle a -> b -> c -> a.
    cyclic = dict(files)
    cyclic["c/BUILD"] = 'cc_library(name = "z", deps = ["//a:x"])\n'
    cyclic_table = table.replace("| `c/` | z | all of it | |",
                                 "| `c/` | z | all of it | `a` |")
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        readme = os.path.join(root, "README.md")
        for readme_text, want, only in [(table, None, True)] + [
                (table.replace(row, drifted), message, only)
                for row, drifted, message, only in drifts]:
            with open(readme, "w", encoding="utf-8") as f:
                f.write(readme_text)
            _, problems = check(readme, root)
            if not want:
                found = not problems
            elif only:
                found = problems == [want]
            else:
                found = any(want in p for p in problems)
            if not found:
                sys.exit(f"self test: expected {want or 'no problem'}, got "
                         f"{problems}")
    with tempfile.TemporaryDirectory() as root:
        for name, text in cyclic.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        readme = os.path.join(root, "README.md")
        with open(readme, "w", encoding="utf-8") as f:
            f.write(cyclic_table)
        _, problems = check(readme, root)
        want = "packages depend on each other: `a/` -> `b/` -> `c/` -> `a/`"
        if problems != [want]:
            sys.exit(f"self test: expected [{want!r}], got {problems}")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    self_test()
    readme = sys.argv[1]
    root = (sys.argv[2] if len(sys.argv) == 3 else
            os.path.dirname(os.path.realpath(readme)))
    if not os.path.exists(os.path.join(root, "WORKSPACE")):
        sys.exit(f"{root}: not the workspace (no WORKSPACE file)")
    packages, problems = check(readme, root)
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"PASS: {len(packages)} packages, all in the codemap with their "
          "dependencies")


if __name__ == "__main__":
    main()
