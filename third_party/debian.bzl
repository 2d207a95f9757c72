"""Offline Bazel repositories built from Debian's packages.

These machines reach Debian's archive and nothing else, so every external repository is made from files that
`apt-get install` put under /usr (see tools/bazel for the package list):

  rules_cc                Debian's rules_cc 0.0.4, patched to load in Bazel 4.2.3.
  com_google_absl         Abseil 20220623 (libabsl-dev), with upstream's labels (@com_google_absl//absl/status:statusor).
  com_google_googletest   GoogleTest 1.12 (libgtest-dev, libgmock-dev): :gtest, :gtest_main, :gmock.
  com_github_google_benchmark  Google Benchmark 1.7 (libbenchmark-dev): :benchmark, :benchmark_main.
  remote_coverage_tools   empty stand-in for the download `bazel test` asks for.
"""

_LIBDIR = "/usr/lib/x86_64-linux-gnu"

def _patched_rules_cc_impl(ctx):
    # A copy, not symlinks: the patch below must never write through to the system's files.
    res = ctx.execute(["cp", "-R", ctx.attr.path + "/.", "."])
    if res.return_code != 0:
        fail("cannot copy rules_cc (apt-get install bazel-rules-cc): " + res.stderr)

    # rules_cc 0.0.4 loads use_cpp_toolchain(), which Bazel 4.2.3's toolchain_utils.bzl lacks; the rules it
    # wraps are the native ones, so naming the toolchain type directly is equivalent.
    for rel in ["cc/private/rules_impl/compiler_flag.bzl", "cc/private/rules_impl/cc_flags_supplier.bzl"]:
        text = ctx.read(ctx.path(rel))
        text = text.replace(', "use_cpp_toolchain")', ")")
        text = text.replace("use_cpp_toolchain()", '["@bazel_tools//tools/cpp:toolchain_type"]')
        ctx.file(rel, text, executable = False)

patched_rules_cc = repository_rule(
    implementation = _patched_rules_cc_impl,
    attrs = {"path": attr.string(default = "/usr/share/bazel/rules/cc")},
    local = True,
)

# Upstream Abseil package -> targets in it. A target named like its pkg-config module (absl_<name>.pc) is an alias
# of the generated library for that module, so BUILD files use the labels any Bazel project uses.
_ABSL_PACKAGES = {
    "absl/algorithm": ["algorithm", "container"],
    "absl/base": ["base", "config", "core_headers"],
    "absl/cleanup": ["cleanup"],
    "absl/container": ["fixed_array", "flat_hash_map", "flat_hash_set", "inlined_vector"],
    "absl/functional": ["function_ref"],
    "absl/numeric": ["bits", "int128"],
    "absl/status": ["status", "statusor"],
    "absl/strings": ["strings", "str_format"],
    "absl/synchronization": ["synchronization"],
    "absl/time": ["time"],
    "absl/types": ["optional", "span", "variant"],
}

def _pc_field(text, field):
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return line[len(field) + 1:].strip()
    return ""

def _debian_abseil_impl(ctx):
    pcdir = ctx.path(_LIBDIR + "/pkgconfig")
    if not pcdir.exists:
        fail("Abseil is not installed: apt-get install libabsl-dev (tools/bazel does this)")
    lines = ['load("@rules_cc//cc:defs.bzl", "cc_import", "cc_library")', ""]
    names = sorted([p.basename[len("absl_"):-len(".pc")] for p in pcdir.readdir() if p.basename.startswith("absl_")])
    for name in names:
        text = ctx.read(pcdir.get_child("absl_%s.pc" % name))
        deps = []
        for req in _pc_field(text, "Requires").split(","):
            req = req.strip().split(" ")[0]
            if req.startswith("absl_"):
                deps.append('":%s"' % req[len("absl_"):])
        if ("-labsl_" + name) in _pc_field(text, "Libs"):
            lib = "lib/libabsl_%s.a" % name
            ctx.symlink(_LIBDIR + "/libabsl_%s.a" % name, lib)
            lines.append('cc_import(name = "%s_archive", static_library = "%s")' % (name, lib))
            deps.insert(0, '":%s_archive"' % name)
        lines.append('cc_library(name = "%s", deps = [%s], visibility = ["//visibility:public"])' % (name, ", ".join(deps)))
    ctx.file("BUILD.bazel", "\n".join(lines) + "\n")
    for pkg, targets in _ABSL_PACKAGES.items():
        ctx.file(pkg + "/BUILD.bazel", "\n".join([
            'alias(name = "%s", actual = "//:%s", visibility = ["//visibility:public"])' % (t, t)
            for t in targets
        ]) + "\n")
    ctx.file("WORKSPACE", 'workspace(name = "com_google_absl")\n')

debian_abseil = repository_rule(implementation = _debian_abseil_impl, local = True)

def _static_libs_repo(ctx, libs, extra):
    """A repository of cc_import targets over /usr/lib archives: libs is {target: (archive, [deps])}."""
    lines = ['load("@rules_cc//cc:defs.bzl", "cc_import", "cc_library")', ""]
    for name, (archive, deps) in sorted(libs.items()):
        if not ctx.path(_LIBDIR + "/" + archive).exists:
            fail("%s is missing: run tools/bazel, which installs the Debian packages" % archive)
        ctx.symlink(_LIBDIR + "/" + archive, "lib/" + archive)
        archive_kind = "static_library" if archive.endswith(".a") else "shared_library"
        lines.append('cc_import(name = "%s_archive", %s = "lib/%s")' % (name, archive_kind, archive))
        lines.append('cc_library(name = "%s", deps = [":%s_archive"] + %s, linkopts = ["-pthread"], visibility = ["//visibility:public"])' % (name, name, deps))
    ctx.file("BUILD.bazel", "\n".join(lines + extra) + "\n")

def _debian_googletest_impl(ctx):
    _static_libs_repo(ctx, {
        "gtest": ("libgtest.a", []),
        "gtest_main": ("libgtest_main.a", [":gtest"]),
        "gmock": ("libgmock.a", [":gtest"]),
        "gmock_main": ("libgmock_main.a", [":gmock"]),
    }, [])

debian_googletest = repository_rule(implementation = _debian_googletest_impl, local = True)

def _debian_benchmark_impl(ctx):
    _static_libs_repo(ctx, {
        "benchmark": ("libbenchmark.so", []),
        "benchmark_main": ("libbenchmark_main.a", [":benchmark"]),
    }, [])

debian_benchmark = repository_rule(implementation = _debian_benchmark_impl, local = True)

def _empty_coverage_tools_impl(ctx):
    ctx.file("BUILD.bazel", "\n".join([
        'filegroup(name = "coverage_report_generator", srcs = [], visibility = ["//visibility:public"])',
        'filegroup(name = "lcov_merger", srcs = [], visibility = ["//visibility:public"])',
    ]) + "\n")

empty_coverage_tools = repository_rule(implementation = _empty_coverage_tools_impl)

def debian_repositories():
    patched_rules_cc(name = "rules_cc")
    native.local_repository(name = "rules_java", path = "/usr/share/bazel/rules/java")
    debian_abseil(name = "com_google_absl")
    debian_googletest(name = "com_google_googletest")
    debian_benchmark(name = "com_github_google_benchmark")
    empty_coverage_tools(name = "remote_coverage_tools")
