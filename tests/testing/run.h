// tests/testing/run.h -- run the built `coreutils` binary (or any program) and capture what it did.
//
// Behaviour tests say what a user would see: the exit status, stdout and stderr, exactly. Each run gets a fresh
// child with the default signal dispositions, an empty signal mask (glibc's own 32 and 33 included), LC_ALL=C, and
// no descriptor but 0, 1 and 2, unless the Options say otherwise.
#ifndef TESTS_TESTING_RUN_H_
#define TESTS_TESTING_RUN_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace coreutils_testing {

struct Result {
  int status = -1;       // Exit status; 128 + N when killed by signal N, as a shell reports it.
  int signal = 0;        // N when killed by signal N, else 0.
  std::string out, err;  // Everything written to stdout and stderr.
  double seconds = 0;    // Wall time from spawn to exit.
  bool hung = false;     // The runner had to kill it after Options::limit_seconds.
};

struct Options {
  std::string input;                     // Written to stdin, which then sees EOF.
  bool close_stdin = false;              // Start with fd 0 closed instead.
  bool close_stdout = false;             // Start with fd 1 closed (out stays empty).
  bool close_stderr = false;             // Start with fd 2 closed.
  std::string stdout_path;               // Open this file (e.g. /dev/full) as stdout instead of capturing.
  std::vector<std::string> env;          // Extra NAME=VALUE entries, after LC_ALL=C (replaced if one sets
                                         // LC_ALL) and the runner's PATH.
  bool clear_env = false;                // Start from nothing but `env` (no LC_ALL, no PATH).
  std::string cwd;                       // Working directory for the child.
  std::function<void()> before_exec;     // Runs in the child just before exec (block or ignore signals, ...).
  double limit_seconds = 60;             // Safety net: a hung child is killed and Result::hung is set.
};

// A file of the test's runfiles by its path in the workspace ("tests/testing/deny_clone3"): under `bazel test`,
// `bazel run`, or run by hand (the runfiles beside the executable, else the same path under bazel-bin).
std::string RunfilePath(const std::string& path);

// The coreutils binary under test, from the test's runfiles, or $COREUTILS_TEST_BINARY when set (an absolute path).
std::string BinaryPath();

// Runs the binary with `argv` (argv[0] picks the utility; stdin and stdout /dev/null; the environment and signal
// state as Invoke gives them), waits until the file `started` exists (the command makes it once it runs: every
// signal of timeout's is set up by then), sends the binary `sig`, and waits for it to end: Result's status, signal,
// err, seconds (from the start) and hung (still running `limit_seconds` after the start: then its process group,
// timeout's own, is killed, so nothing is left behind). A test failure if it ends before `started` appears.
// `launcher`: an absolute path and its arguments, which execs the rest ({"/usr/bin/taskset", "-c", "0"}), so
// that the pid is still the binary's.
Result SignalOnceStarted(const std::vector<std::string>& argv, const std::string& started, int sig,
                         double limit_seconds = 60, const std::vector<std::string>& launcher = {});

// CLOCK_MONOTONIC in seconds, for deadlines in tests.
double Now();

// Runs the coreutils binary with exactly this argv; argv[0] picks the utility, as a busybox-style link would.
Result Invoke(const std::vector<std::string>& argv, const Options& options = {});

// Runs PATH with exactly this argv (a symlink to the binary, or GNU's /usr/bin/timeout for differential tests).
Result RunProgram(const std::string& path, const std::vector<std::string>& argv, const Options& options = {});

// One behaviour, as a row of a table: {name, argv, status, stdout, stderr}.
struct Case {
  std::string name;
  std::vector<std::string> argv;
  int status;
  std::string out;
  std::string err;
  friend std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }
};

// EXPECTs the case's status, stdout and stderr, naming the case in any failure.
void ExpectCase(const Case& c, const Options& options = {});

// A fresh empty directory under TEST_TMPDIR, removed by nobody (Bazel clears it).
std::string MakeTempDir();

// The whole content of a file ("" if it cannot be read).
std::string ReadFile(const std::string& path);

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_RUN_H_
