"""help_text(): a utility's --help text and its man page, both made from NAME.help by tools/helpgen."""

load("@rules_cc//cc:defs.bzl", "cc_library")

def help_text(name):
    """From NAME.help in this package: NAME.1, the man page, and cc_library NAME_help, whose NAME_help.h defines
    `help::kName`, the --help text (tools/helpgen/helpgen.h has the format).

    Args:
      name: the utility, as NAME.help spells it ("timeout").
    """
    native.genrule(
        name = name + "_help_files",
        srcs = [name + ".help", "//uucore:cli.h"],
        outs = [name + "_help.h", name + ".1"],
        cmd = ("$(location //tools/helpgen) --version-from=$(location //uucore:cli.h) " +
               "--header=$(location {0}_help.h) --man=$(location {0}.1) $(location {0}.help)").format(name),
        tools = ["//tools/helpgen"],
        visibility = ["//tests:__subpackages__", "//tools:__subpackages__", "//utils:__subpackages__"],
    )
    cc_library(
        name = name + "_help",
        hdrs = [name + "_help.h"],
    )
