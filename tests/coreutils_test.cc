// The multicall binary: dispatch on argv[0], `coreutils NAME`, --list/--help/--version/--install, and the
// promise that it is one static executable that runs alone in an empty root.
#include <elf.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

std::string ListOutput() {
  Result r = Invoke({"coreutils", "--list"});
  EXPECT_EQ(r.status, 0);
  return r.out;
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  std::istringstream in(ListOutput());
  for (std::string line; std::getline(in, line);) names.push_back(line);
  return names;
}

TEST(CoreutilsTest, ListIsSortedOneNamePerLine) {
  std::vector<std::string> names = Names();
  ASSERT_GE(names.size(), 2u);
  for (size_t i = 1; i < names.size(); ++i) EXPECT_LT(names[i - 1], names[i]);
  for (const char* expected : {"false", "true"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

TEST(CoreutilsTest, Cases) {
  for (const Case& c : std::vector<Case>{
           {"NAME runs the utility", {"coreutils", "false"}, 1, "", ""},
           {"the utility sees argv[0] == NAME", {"coreutils", "true", "--help"}, 0,
            R"(Usage: true [ignored command line arguments]
  or:  true OPTION
Do nothing and report success (exit status 0).  Arguments are ignored,
unless the only one is --help or --version.

      --help        show this help text, then exit
      --version     show version information, then exit
)",
            ""},
           {"options after NAME belong to the utility", {"coreutils", "false", "--list"}, 1, "", ""},
           {"unknown NAME", {"coreutils", "nosuch"}, 1, "", "coreutils: unknown program 'nosuch'\n"},
           {"unknown NAME is quoted", {"coreutils", "a'b"}, 1, "", "coreutils: unknown program 'a\\'b'\n"},
           {"unknown link name", {"/x/nosuch"}, 1, "", "coreutils: unknown program 'nosuch'\n"},
           {"no NAME", {"coreutils"}, 1, "",
            "coreutils: missing program name\nTry 'coreutils --help' for more information.\n"},
           {"unknown option", {"coreutils", "--bogus"}, 1, "",
            "coreutils: unrecognized option '--bogus'\nTry 'coreutils --help' for more information.\n"},
           {"dispatch by basename of a path", {"/usr/local/bin/false"}, 1, "", ""},
           {"dispatch with a trailing slash-free relative path", {"./true"}, 0, "", ""},
           {"version", {"coreutils", "--version"}, 0,
            "coreutils (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with "
            "it.\n",
            ""},
           {"-- ends the options", {"coreutils", "--", "false"}, 1, "", ""},
           {"link options need --install", {"coreutils", "--force", "true"}, 1, "",
            "coreutils: --symlinks, --hardlinks and --force go with --install\nTry 'coreutils --help' for more "
            "information.\n"},
           {"messages name the program (GNU 9.10)", {"/opt/coreutils", "nosuch"}, 1, "",
            "coreutils: unknown program 'nosuch'\n"},
           // Any name that starts with "coreutils" is the dispatcher: release files keep their names.
           {"a renamed binary lists", {"/opt/coreutils-amd64", "--list"}, 0, ListOutput(), ""},
           {"a renamed binary runs a utility", {"coreutils.static", "false"}, 1, "", ""},
           {"a renamed binary's messages", {"/opt/coreutils-x86_64-linux", "nosuch"}, 1, "",
            "coreutils-x86_64-linux: unknown program 'nosuch'\n"},
           {"only as a prefix", {"my-coreutils", "--list"}, 1, "", "coreutils: unknown program 'my-coreutils'\n"},
           {"install needs a directory", {"coreutils", "--install"}, 1, "",
            "coreutils: --install: missing directory operand\nTry 'coreutils --help' for more information.\n"},
           {"install takes one directory", {"coreutils", "--install", "a", "b"}, 1, "",
            "coreutils: extra operand 'b'\nTry 'coreutils --help' for more information.\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(CoreutilsTest, HelpListsTheOptions) {
  Result r = Invoke({"coreutils", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  for (const char* needle : {"Usage: coreutils NAME [ARGUMENT]...\n", "--list", "--install", "--version"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle;
  }
}

TEST(CoreutilsTest, ListToFullDeviceIsAWriteError) {
  Options full;
  full.stdout_path = "/dev/full";
  Result r = Invoke({"coreutils", "--list"}, full);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "coreutils: write error: No space left on device\n");
}

TEST(CoreutilsTest, DispatchesThroughAChainOfSymlinks) {
  const std::string dir = MakeTempDir();
  ASSERT_EQ(symlink(BinaryPath().c_str(), (dir + "/coreutils").c_str()), 0);
  ASSERT_EQ(symlink((dir + "/coreutils").c_str(), (dir + "/false").c_str()), 0);
  ASSERT_EQ(symlink("false", (dir + "/link-to-false").c_str()), 0);  // Named after itself, not its target.
  ASSERT_EQ(symlink("false", (dir + "/true").c_str()), 0);           // The name called, not the target, decides.

  Result r = RunProgram(dir + "/false", {dir + "/false"});
  EXPECT_EQ(r.status, 1);
  r = RunProgram(dir + "/true", {dir + "/true"});
  EXPECT_EQ(r.status, 0);
  r = RunProgram(dir + "/link-to-false", {dir + "/link-to-false"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "coreutils: unknown program 'link-to-false'\n");
  r = RunProgram(dir + "/coreutils", {dir + "/coreutils", "true"});
  EXPECT_EQ(r.status, 0);
}

TEST(CoreutilsTest, EmptyArgvIsHandled) {
  Result r = Invoke({});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "coreutils: missing program name\nTry 'coreutils --help' for more information.\n");
}

bool SameInode(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
}

TEST(CoreutilsInstallTest, MakesASymlinkForEveryUtility) {
  const std::string dir = MakeTempDir();
  Result r = Invoke({"coreutils", "--install", dir});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  for (const std::string& name : Names()) {
    struct stat st;
    ASSERT_EQ(lstat((dir + "/" + name).c_str(), &st), 0) << name;
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << name;
    EXPECT_TRUE(SameInode(dir + "/" + name, BinaryPath())) << name;
  }
  // The links work: a link named false fails, as false does.
  EXPECT_EQ(RunProgram(dir + "/false", {dir + "/false"}).status, 1);
  // Installing again over our own links is not an error.
  r = Invoke({"coreutils", "--install", dir});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

TEST(CoreutilsInstallTest, HardlinksOnRequest) {
  // A copy of the binary beside the target directory, so both are on one filesystem whatever the sandbox does.
  const std::string dir = MakeTempDir();
  const std::string self = dir + "/coreutils";
  {
    std::ifstream src(BinaryPath(), std::ios::binary);
    std::ofstream dst(self, std::ios::binary);
    dst << src.rdbuf();
  }
  ASSERT_EQ(chmod(self.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((dir + "/bin").c_str(), 0755), 0);
  Result r = RunProgram(self, {"coreutils", "--install", "--hardlinks", dir + "/bin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  struct stat st;
  ASSERT_EQ(lstat((dir + "/bin/true").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_TRUE(SameInode(dir + "/bin/true", self));
  EXPECT_EQ(RunProgram(dir + "/bin/false", {dir + "/bin/false"}).status, 1);
}

TEST(CoreutilsInstallTest, LeavesExistingFilesAloneUnlessForced) {
  const std::string dir = MakeTempDir();
  { std::ofstream(dir + "/true") << "mine\n"; }
  Result r = Invoke({"coreutils", "--install", dir});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "coreutils: '" + dir + "/true': file exists; not replaced (use --force)\n");
  std::ifstream kept(dir + "/true");
  std::string content((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "mine\n");
  EXPECT_TRUE(SameInode(dir + "/false", BinaryPath()));  // The others were still made.

  r = Invoke({"coreutils", "--install", "--force", dir});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(SameInode(dir + "/true", BinaryPath()));
  // No temporary file is left behind by the atomic replace.
  EXPECT_NE(access((dir + "/.true.coreutils-install").c_str(), F_OK), 0);
}

TEST(CoreutilsInstallTest, MissingDirectoryFails) {
  const std::string dir = MakeTempDir() + "/absent";
  Result r = Invoke({"coreutils", "--install", dir});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("coreutils: cannot create link '" + dir + "/false': No such file or directory\n"),
            std::string::npos)
      << r.err;
}

// The binary carries no program interpreter: it is statically linked and needs no ld.so or libc.so.
// The binary blocks every signal from its first instruction (utils/coreutils/entry.S). What each utility runs, and
// each utility itself, still gets exactly the mask it was started with: here USR1 and the real-time signal 40
// blocked, glibc's own 32 too (a raw mask, as a program not linked with glibc could hand down).
std::string CallersMaskLine() { return "SigBlk:\t0000008080000200\n"; }

Options WithCallersMask() {
  Options options;
  options.before_exec = [] {
    const uint64_t mask = (uint64_t{1} << (SIGUSR1 - 1)) | (uint64_t{1} << (32 - 1)) | (uint64_t{1} << (40 - 1));
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, nullptr, 8);
  };
  return options;
}

TEST(StartupMaskTest, WhatAUtilityRunsGetsTheCallersMaskExactly) {
  // grep itself, not through sh: dash clears the mask it starts with.
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"env", "grep", "SigBlk", "/proc/self/status"},
           {"nohup", "grep", "SigBlk", "/proc/self/status"},
           {"timeout", "10", "grep", "SigBlk", "/proc/self/status"},
           {"timeout", "--foreground", "10", "grep", "SigBlk", "/proc/self/status"},
           {"coreutils", "env", "grep", "SigBlk", "/proc/self/status"},
       }) {
    Result r = Invoke(argv, WithCallersMask());
    EXPECT_EQ(r.status, 0) << argv[0];
    EXPECT_EQ(r.out, CallersMaskLine()) << argv[0] << " " << argv[1];
  }
}

TEST(StartupMaskTest, AUtilityRunsWithTheCallersMask) {
  // sleep waits with the caller's dispositions and mask: TERM ends it at once. Were the start-up block kept, TERM
  // would stay pending and sleep would run its 10 s.
  Result r = RunProgram("/bin/sh", {"sh", "-c", "\"$0\" sleep 10 & sleep 0.3; kill -TERM $!; wait $!; echo status=$?",
                                    BinaryPath()});
  EXPECT_EQ(r.out, "status=143\n");
  EXPECT_LT(r.seconds, 5);
}

TEST(StaticBinaryTest, HasNoProgramInterpreter) {
#ifdef COREUTILS_SANITIZED
  GTEST_SKIP() << "sanitizer builds link dynamically";
#endif
  std::ifstream in(BinaryPath(), std::ios::binary);
  Elf64_Ehdr eh;
  ASSERT_TRUE(in.read(reinterpret_cast<char*>(&eh), sizeof eh));
  ASSERT_EQ(std::string(reinterpret_cast<char*>(eh.e_ident), 4), std::string(ELFMAG));
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    in.seekg(eh.e_phoff + i * eh.e_phentsize);
    ASSERT_TRUE(in.read(reinterpret_cast<char*>(&ph), sizeof ph));
    EXPECT_NE(ph.p_type, static_cast<Elf64_Word>(PT_INTERP)) << "program header " << i;
  }
}

// The binary replaces std::ios_base::Init with a no-op (utils/coreutils/no_iostream_init.cc), so the standard
// streams are never constructed: nothing in it may use them. Our own sources cannot (.bazelrc predefines
// <iostream>'s guard for them); this reads the linked binary's symbol table for what libraries bring (Abseil is
// built with per-function sections, so its stream-writing debug dumps are dropped with everything else unused).
TEST(NoStandardStreamsTest, BinaryReferencesNoStandardStream) {
#ifdef COREUTILS_SANITIZED
  GTEST_SKIP() << "sanitizer builds construct the streams as usual";
#endif
  Options plain;
  Result nm = RunProgram("/usr/bin/nm", {"nm", BinaryPath()}, plain);
  ASSERT_EQ(nm.status, 0) << nm.err;
  ASSERT_NE(nm.out.find(" main\n"), std::string::npos) << "nm printed no symbol table";
  for (const char* stream : {"_ZSt4cout", "_ZSt4cerr", "_ZSt4clog", "_ZSt3cin", "_ZSt5wcout", "_ZSt5wcerr",
                             "_ZSt5wclog", "_ZSt4wcin"}) {
    EXPECT_EQ(nm.out.find(std::string(" ") + stream + "\n"), std::string::npos) << stream;
  }
}

// The static binary is linked hot-first (utils/coreutils/symbol_order.txt, utils/coreutils/BUILD.bazel): every code
// symbol the list names lies in one block at the start of the text, so that start-up touches few 64 KiB windows and
// timeout as PID 1 keeps a small resident set (README). In link order (GNU ld, or the list not passed) they spread
// over the whole text. The block may hold the rest of each listed symbol's input section and alignment padding:
// allowed up to twice the listed symbols' own size.
TEST(LayoutTest, ListedHotCodeComesFirst) {
#ifdef COREUTILS_SANITIZED
  GTEST_SKIP() << "sanitizer builds are linked without the layout";
#endif
  std::ifstream list(RunfilePath("utils/coreutils/symbol_order.txt"));
  ASSERT_TRUE(list) << "symbol_order.txt is not in the runfiles";
  std::set<std::string> listed;
  for (std::string line; std::getline(list, line);) {
    if (!line.empty() && line[0] != '#') listed.insert(line);
  }
  Options plain;
  Result nm = RunProgram("/usr/bin/nm", {"nm", "-S", "--defined-only", BinaryPath()}, plain);
  ASSERT_EQ(nm.status, 0) << nm.err;
  uint64_t text_start = UINT64_MAX, text_end = 0, hot_end = 0, hot_size = 0;
  int hot = 0;
  std::istringstream in(nm.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string address, size, type, name;
    if (!(fields >> address >> size >> type >> name) || (type != "t" && type != "T" && type != "W")) continue;
    const uint64_t start = std::stoull(address, nullptr, 16), length = std::stoull(size, nullptr, 16);
    text_start = std::min(text_start, start);
    text_end = std::max(text_end, start + length);
    if (listed.count(name) == 0) continue;
    ++hot;
    hot_size += length;
    hot_end = std::max(hot_end, start + length);
  }
  ASSERT_GT(hot, 100) << "too few listed symbols in the binary: is symbol_order.txt stale?";
  EXPECT_LE(hot_end - text_start, 2 * hot_size)
      << hot << " listed functions, " << hot_size << " bytes, spread over " << hot_end - text_start << " of the "
      << text_end - text_start << " bytes of text";
}

// Alone in an otherwise empty root directory, as in a FROM-scratch container image, the binary still runs.
TEST(StaticBinaryTest, RunsInAnEmptyChroot) {
#ifdef COREUTILS_SANITIZED
  GTEST_SKIP() << "sanitizer builds link dynamically";
#endif
  if (geteuid() != 0) GTEST_SKIP() << "chroot needs root";
  const std::string root = MakeTempDir();
  {
    std::ifstream src(BinaryPath(), std::ios::binary);
    std::ofstream dst(root + "/coreutils", std::ios::binary);
    dst << src.rdbuf();
  }
  ASSERT_EQ(chmod((root + "/coreutils").c_str(), 0755), 0);
  Options in_root;
  in_root.before_exec = [root] {
    if (chroot(root.c_str()) != 0 || chdir("/") != 0) _exit(201);
  };
  Result r = RunProgram("/coreutils", {"false"}, in_root);
  EXPECT_EQ(r.status, 1) << r.err;
  r = RunProgram("/coreutils", {"coreutils", "true", "--version"}, in_root);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 24), "true (coreutils) 0.1.0\nW");
}

}  // namespace
}  // namespace coreutils_testing
