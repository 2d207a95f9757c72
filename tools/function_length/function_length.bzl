"""source_files: the C++ sources and headers of the targets a binary is built from, within chosen packages.

For tests that read the code itself (tools/function_length): the files come from the build graph, so a new file
in any library the roots link is checked without anyone listing it, and the test reruns whenever one changes.
"""

SourcesInfo = provider(fields = ["files"])

def _sources_aspect_impl(target, ctx):
    own = []
    if hasattr(ctx.rule.files, "srcs"):
        own += ctx.rule.files.srcs
    if hasattr(ctx.rule.files, "hdrs"):
        own += ctx.rule.files.hdrs
    own = [f for f in own if f.is_source and f.extension in ("cc", "h")]
    transitive = [d[SourcesInfo].files for d in getattr(ctx.rule.attr, "deps", []) if SourcesInfo in d]
    actual = getattr(ctx.rule.attr, "actual", None)
    if actual != None and SourcesInfo in actual:
        transitive.append(actual[SourcesInfo].files)
    return [SourcesInfo(files = depset(own, transitive = transitive))]

_sources_aspect = aspect(
    implementation = _sources_aspect_impl,
    attr_aspects = ["deps", "actual"],
)

def _source_files_impl(ctx):
    files = depset(transitive = [r[SourcesInfo].files for r in ctx.attr.roots])
    kept = [
        f
        for f in files.to_list()
        if f.owner.workspace_name == "" and
           [p for p in ctx.attr.packages if f.owner.package == p or f.owner.package.startswith(p + "/")]
    ]
    return [DefaultInfo(files = depset(kept), runfiles = ctx.runfiles(files = kept))]

source_files = rule(
    implementation = _source_files_impl,
    attrs = {
        "roots": attr.label_list(aspects = [_sources_aspect]),
        "packages": attr.string_list(doc = "Packages whose files are kept, with every package below each."),
    },
)
