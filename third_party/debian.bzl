"""Bazel repositories built from Debian's packages and, for Abseil, Debian's source package.

These machines reach Debian's archive and nothing else, so every external repository is made from files that
`apt-get install` put under /usr (see tools/install-deps for the package list), or, for Abseil, from Debian's source
package fetched from the same archive:

  rules_cc                Debian's rules_cc 0.0.4, patched to load in Bazel 4.2.3.
  com_google_absl         Abseil 20220623 built from Debian's source package (fetched from Debian's archive by
                          checksum, Debian's patches applied), with its own BUILD files and labels.
  bazel_skylib            Debian's bazel-skylib, which Abseil's BUILD files load.
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

# Abseil is built from Debian's source package (the same upstream release and Debian patches as libabsl-dev), not
# linked from libabsl-dev's archives: those are compiled without -ffunction-sections, so absl::Status drags every
# object it touches (Cord, Mutex, time zones, and through them iostreams and locales) into the static binary, ~1 MB
# of code no utility runs. Built here with this workspace's flags, --gc-sections keeps only what is called.
# The checksums are those of Debian's signed .dsc for abseil 20220623.1-1+deb12u2 (bookworm); Bazel's repository
# cache keeps the files after the first fetch. Should Debian supersede this version, its pool drops the old
# .debian.tar.xz: take the new version and checksums from the new .dsc (same directory) and update them here.
_ABSL_DEBIAN_VERSION = "20220623.1-1+deb12u2"
_ABSL_ORIG = ("abseil_20220623.1.orig.tar.gz", "abfe2897f3a30edaa74bc34365afe3c2a3cd012091a97dc7e008f7016adcd5fe")
_ABSL_DEBIAN = ("abseil_%s.debian.tar.xz" % _ABSL_DEBIAN_VERSION, "e08490fc7b6f3beca1925953b0c4fb92df2de5e2a01295e4641e2a3d4e528eeb")
_DEBIAN_POOL = [
    "http://deb.debian.org/debian/pool/main/a/abseil/",
    "https://deb.debian.org/debian/pool/main/a/abseil/",
]

def _debian_abseil_source_impl(ctx):
    orig, orig_sha = _ABSL_ORIG
    ctx.download_and_extract([u + orig for u in _DEBIAN_POOL], sha256 = orig_sha, stripPrefix = "abseil-20220623.1")
    deb, deb_sha = _ABSL_DEBIAN
    ctx.download_and_extract([u + deb for u in _DEBIAN_POOL], output = "debian_source", sha256 = deb_sha)

    # Debian's patches, in Debian's order: its ABI configuration (absl::string_view and friends are Abseil's own
    # types, inline namespace debian3, hardened mode) and its fixes, among them CVE-2025-0838.
    patches = ctx.path("debian_source/debian/patches")
    for name in ctx.read(patches.get_child("series")).splitlines():
        name = name.strip()
        if name and not name.startswith("#"):
            # patch(1), not ctx.patch: Bazel 4's built-in applier misreads Debian's multi-file configure.diff.
            res = ctx.execute(["patch", "-p1", "--forward", "--batch", "-i", str(patches.get_child(name))])
            if res.return_code != 0:
                fail("Debian patch %s does not apply (apt-get install patch):\n%s%s" % (name, res.stdout, res.stderr))
    ctx.delete("debian_source")

    # Bazel 4.2.3's bundled @platforms predates the wasm CPUs; this build only targets Linux x86-64, so those two
    # settings become ones that never match.
    build = ctx.read("absl/BUILD.bazel")
    for cpu in ["wasm32", "wasm64"]:
        constraint = 'constraint_values = [\n        "@platforms//cpu:%s",\n    ],' % cpu
        if constraint not in build:
            fail("absl/BUILD.bazel no longer names @platforms//cpu:%s as expected: revisit this rewrite" % cpu)
        build = build.replace(constraint, 'values = {"define": "absl_target_cpu=%s"},' % cpu)
    ctx.file("absl/BUILD.bazel", build, executable = False)

debian_abseil_source = repository_rule(implementation = _debian_abseil_source_impl)

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
    native.local_repository(name = "bazel_skylib", path = "/usr/share/bazel/tools/skylib")
    debian_abseil_source(name = "com_google_absl")
    debian_googletest(name = "com_google_googletest")
    debian_benchmark(name = "com_github_google_benchmark")
    empty_coverage_tools(name = "remote_coverage_tools")
