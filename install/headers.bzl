"""cc_headers: the headers that cc_library targets declare in `hdrs`, as files.

The install step copies them; listing libraries rather than files keeps each
package's sources private to it.
"""

def _cc_headers_impl(ctx):
    headers = []
    for dep in ctx.attr.deps:
        headers.extend(dep[CcInfo].compilation_context.direct_public_headers)
    return [DefaultInfo(
        files = depset(headers),
        runfiles = ctx.runfiles(files = headers),
    )]

cc_headers = rule(
    implementation = _cc_headers_impl,
    attrs = {"deps": attr.label_list(providers = [CcInfo])},
)
