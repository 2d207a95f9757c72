"""Bazel repositories built from Debian's packages and, for Abseil, Debian's source package.

These machines reach Debian's archive and nothing else, so every external repository is made from files that
`apt-get install` put under /usr (see tools/install-deps for the package list), or, for Abseil, from Debian's source
package fetched through apt from the same archive:

  rules_cc                Debian's rules_cc 0.0.4, patched to load in Bazel 4.2.3.
  com_google_absl         Abseil 20220623 built from Debian's source package (fetched through apt from the
                          archive apt is configured with, Debian's patches applied), with its own BUILD files and
                          labels; //debian_source:version records the Debian version built.
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
#
# The source comes through apt, from whatever archive or mirror this machine's apt is configured with
# (third_party/apt_fetch_source: a private deb-src list derived from the machine's sources, so apt's signed Release
# and Sources indexes vouch for every file), as the newest Debian version of upstream release 20220623 that the
# archive serves. The version built is recorded in @com_google_absl//debian_source:version (a header) and
# debian_source/VERSION. The fetch runs once per output base; `tools/bazel sync --only=com_google_absl` takes a
# newer Debian revision (a security update) into an existing one.
_ABSL_PACKAGE = "abseil"
_ABSL_UPSTREAM = "20220623"

def _debian_abseil_source_impl(ctx):
    ctx.report_progress("apt-get source %s %s.x" % (_ABSL_PACKAGE, _ABSL_UPSTREAM))
    res = ctx.execute(
        [
            ctx.path(ctx.attr._fetch),
            "--package",
            _ABSL_PACKAGE,
            "--upstream",
            _ABSL_UPSTREAM,
            "--dest",
            "debian_source",
        ],
        timeout = 1800,
    )
    if res.return_code != 0:
        fail("cannot fetch Debian's %s source through apt:\n%s" % (_ABSL_PACKAGE, res.stderr))
    version = res.stdout.strip()
    src = ctx.path("debian_source")
    files = sorted([f.basename for f in src.readdir()])
    orig = [f for f in files if ".orig.tar." in f]
    debian = [f for f in files if ".debian.tar." in f]
    if len(orig) != 1 or len(debian) != 1:
        fail("%s %s: expected one .orig.tar.* and one .debian.tar.* (3.0 (quilt)), got %s" %
             (_ABSL_PACKAGE, version, files))

    # tar(1) detects the compression; the upstream tarball has one top directory, whatever its name.
    res = ctx.execute(["tar", "-xf", str(src.get_child(orig[0])), "--strip-components=1"])
    if res.return_code != 0:
        fail("cannot unpack %s: %s" % (orig[0], res.stderr))
    res = ctx.execute(["tar", "-xf", str(src.get_child(debian[0])), "-C", str(ctx.path("."))])
    if res.return_code != 0:
        fail("cannot unpack %s: %s" % (debian[0], res.stderr))

    # Debian's patches, in Debian's order: its ABI configuration (absl::string_view and friends are Abseil's own
    # types, inline namespace debian3, hardened mode) and its fixes, among them CVE-2025-0838.
    patches = ctx.path("debian/patches")
    for name in ctx.read(patches.get_child("series")).splitlines():
        name = name.strip()
        if name and not name.startswith("#"):
            # patch(1), not ctx.patch: Bazel 4's built-in applier misreads Debian's multi-file configure.diff.
            res = ctx.execute(["patch", "-p1", "--forward", "--batch", "-i", str(patches.get_child(name))])
            if res.return_code != 0:
                fail("Debian patch %s does not apply (apt-get install patch):\n%s%s" % (name, res.stdout, res.stderr))
    ctx.delete("debian")

    # Bazel 4.2.3's bundled @platforms predates the wasm CPUs; this build only targets Linux, so those two settings
    # become ones that never match.
    build = ctx.read("absl/BUILD.bazel")
    for cpu in ["wasm32", "wasm64"]:
        constraint = 'constraint_values = [\n        "@platforms//cpu:%s",\n    ],' % cpu
        if constraint not in build:
            fail("absl/BUILD.bazel no longer names @platforms//cpu:%s as expected: revisit this rewrite" % cpu)
        build = build.replace(constraint, 'values = {"define": "absl_target_cpu=%s"},' % cpu)
    ctx.file("absl/BUILD.bazel", build, executable = False)

    # What was built, for --version's provenance line and release notes: the Debian version, and the fetched files
    # (apt verified them; kept for tests and for anyone who wants to rebuild from the same source).
    ctx.file("debian_source/VERSION", version + "\n", executable = False)
    ctx.file("debian_source/version.h", "\n".join([
        "// Generated by third_party/debian.bzl: the Debian source package Abseil was built from.",
        "#ifndef COREUTILS_DEBIAN_SOURCE_VERSION_H_",
        "#define COREUTILS_DEBIAN_SOURCE_VERSION_H_",
        "namespace coreutils_build {",
        "inline constexpr char kAbseilDebianPackage[] = \"%s\";" % _ABSL_PACKAGE,
        "inline constexpr char kAbseilDebianVersion[] = \"%s\";" % version,
        "}  // namespace coreutils_build",
        "#endif  // COREUTILS_DEBIAN_SOURCE_VERSION_H_",
        "",
    ]), executable = False)
    ctx.file("debian_source/BUILD.bazel", "\n".join([
        'cc_library(name = "version", hdrs = ["version.h"], visibility = ["//visibility:public"])',
        'exports_files(["VERSION"])',
        'filegroup(name = "files", srcs = %s, visibility = ["//visibility:public"])' % files,
        "",
    ]), executable = False)

debian_abseil_source = repository_rule(
    implementation = _debian_abseil_source_impl,
    attrs = {"_fetch": attr.label(default = Label("//third_party:apt_fetch_source"), allow_single_file = True)},
)

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
