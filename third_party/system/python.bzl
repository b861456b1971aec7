"""Headers of Debian's Python 3 (python3-dev), for the pybind11 extension.

The interpreter is /usr/bin/python3, the one Debian's python3-numpy and friends
serve; it reports its own include directory, so no version is spelled here.
"""

def _python_headers_impl(ctx):
    result = ctx.execute([
        ctx.attr.interpreter,
        "-c",
        "import sysconfig; print(sysconfig.get_paths()['include'])",
    ])
    if result.return_code != 0:
        fail("%s cannot name its include directory: %s" %
             (ctx.attr.interpreter, result.stderr))
    ctx.symlink(result.stdout.strip(), "include")
    ctx.file("BUILD", """package(default_visibility = ["//visibility:public"])

cc_library(
    name = "headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
)
""")

python_headers = repository_rule(
    implementation = _python_headers_impl,
    attrs = {"interpreter": attr.string(default = "/usr/bin/python3")},
    local = True,
)
