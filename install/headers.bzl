"""installed_headers: the public headers as a client sees them after install.

Headers are installed under one directory of their own, <prefix>/include/rankmap,
and a client puts <prefix>/include on its include path: every rankmap header is
then `rankmap/...` and none collides with a client's own `core/` or `base/`.
The front door package api/ sits at the top (`rankmap/rankmap.h`,
`rankmap/c_api.h`, `rankmap/named_options.h`, ...); every other package keeps
its directory (`rankmap/core/mapper.h`, `rankmap/graphs/graphs.h`). Inside the
copies, includes of rankmap headers are rewritten the same way, so the tree is
self-contained.

The rule writes that tree under <package>/<name>/include and provides it as a
C/C++ library (the tree on the include path, the deps for linking), so Bazel
builds the examples against exactly what the install step copies.
"""

_FRONT_DOOR = "api"

def installed_path(path):
    """Where a repository header lands below <prefix>/include."""
    if path.startswith(_FRONT_DOOR + "/"):
        return "rankmap/" + path[len(_FRONT_DOOR) + 1:]
    return "rankmap/" + path

def _rankmap_packages(deps):
    """Top-level directories of every header of this repository the deps see."""
    tops = {}
    for dep in deps:
        for h in dep[CcInfo].compilation_context.headers.to_list():
            if h.owner != None and h.owner.workspace_name == "" and "/" in h.short_path:
                tops[h.short_path.split("/")[0]] = True
    return sorted(tops.keys())

def _installed_headers_impl(ctx):
    # One sed expression per top-level package: `#include "core/x.h"` becomes
    # `#include "rankmap/core/x.h"`, `#include "api/x.h"` `"rankmap/x.h"`.
    script = []
    for top in _rankmap_packages(ctx.attr.deps):
        target = installed_path(top + "/")
        script.append('s|^\\([[:space:]]*#[[:space:]]*include[[:space:]]*\\)"%s/|\\1"%s|' % (top, target))
    root = ctx.label.name + "/include/"
    outs = []
    for dep in ctx.attr.deps:
        for h in dep[CcInfo].compilation_context.direct_public_headers:
            out = ctx.actions.declare_file(root + installed_path(h.short_path))
            ctx.actions.run_shell(
                inputs = [h],
                outputs = [out],
                command = 'sed -e "$1" "$2" > "$3"',
                arguments = [";".join(script), h.path, out.path],
                mnemonic = "InstalledHeader",
                progress_message = "Rewriting includes of " + h.short_path,
            )
            outs.append(out)
    include_dir = "/".join([p for p in [ctx.bin_dir.path, ctx.label.package, ctx.label.name, "include"] if p])
    own = CcInfo(compilation_context = cc_common.create_compilation_context(
        headers = depset(outs),
        includes = depset([include_dir]),
    ))
    return [
        DefaultInfo(files = depset(outs), runfiles = ctx.runfiles(files = outs)),
        cc_common.merge_cc_infos(cc_infos = [own] + [d[CcInfo] for d in ctx.attr.deps]),
    ]

installed_headers = rule(
    implementation = _installed_headers_impl,
    attrs = {"deps": attr.label_list(providers = [CcInfo])},
    doc = "The headers the deps declare in `hdrs`, laid out and rewritten as installed.",
)
