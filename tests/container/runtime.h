// tests/container/runtime.h -- run the image as a container's PID 1 under runc, or in a bare PID namespace.
//
// The bundle is the real image: tools/image run on the binary under test, unpacked with umoci, with the test's own
// files added to its rootfs (/app, /nop, /floor, /noexec, /tini = Debian's tini-static, /dumb-init = Debian's dynamic
// build with its libraries). Each container gets its own config.json over that one read-only rootfs, and the
// process that uses this file becomes a child subreaper, so that a detached container's PID 1 is re-parented to
// it and its exit status is read with waitpid, exactly.
#ifndef TESTS_CONTAINER_RUNTIME_H_
#define TESTS_CONTAINER_RUNTIME_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace container_testing {

// A program in PATH or in an sbin directory (runc is /usr/sbin/runc; Bazel's test PATH has no sbin), or "".
std::string FindProgram(const std::string& name);

// Starts argv (argv[0] a path) as a child with default dispositions, nothing blocked, and exactly these three
// descriptors as 0, 1 and 2. Returns its pid (or -1); the caller waits for it.
pid_t Spawn(const std::vector<std::string>& argv, int in, int out, int err);

// Runs argv with stdin /dev/null; stdout and stderr together in `output`. Returns the status as a shell reports it
// (128 + N if killed by N), or -1 if it could not start or was killed after limit_seconds.
int Capture(const std::vector<std::string>& argv, std::string* output, double limit_seconds = 60);
// The same with stdout in `out` and stderr apart in `err`, for what a test reads or compares exactly: a warning on
// stderr cannot change it.
int Capture(const std::vector<std::string>& argv, std::string* out, std::string* err, double limit_seconds = 60);

// Reads `*fd` into `*output` until `text` has appeared in it or `seconds` passed; true if it appeared. At EOF (or EIO,
// once no process holds a terminal) it closes the descriptor and sets *fd to -1.
bool ReadUntil(int* fd, std::string* output, const std::string& text, double seconds);

// Copies a host file into `rootfs` at `dest` (parents made), following symlinks: "" or the error.
std::string CopyIn(const std::string& host, const std::string& rootfs, const std::string& dest, mode_t mode);

// Copies what `ldd PROGRAM` lists (the loader and libraries, at their own paths) into `rootfs`: "" or the error.
// Nothing for a static program. Sanitizer builds put their dynamic binary into a container this way.
std::string CopyLibraries(const std::string& program, const std::string& rootfs);

// Why runc containers cannot run here ("" when they can): not root, runc or umoci missing, a sanitizer build whose
// libraries cannot be found, or runc failing to start `true` (its message). Built and checked once per process.
std::string RuncUnavailable();

// An init under comparison: the argv that runs a command under it, in the rootfs and on the host.
struct Init {
  std::string name;                         // "ours", "tini", "dumb-init": the README table's column
  std::vector<std::string> prefix;          // In the rootfs: {"/coreutils", "timeout", "0"}; the command follows.
  std::vector<std::string> host_prefix;     // The same on the host, for a bare PID namespace.
};
Init Ours();      // /coreutils timeout 0 COMMAND...
Init Tini();      // /tini -- COMMAND... (Debian's tini-static)
Init DumbInit();  // /dumb-init COMMAND... (Debian's build, dynamic)
// Whether the peer's program is installed (the tini and dumb-init packages); ours always is.
bool Installed(const Init& init);

// The image tools/image made of the binary under test, and its rootfs shared by every container (both after
// RuncUnavailable() returned "").
std::string ImageLayout();
std::string Rootfs();

// One container over the shared rootfs. The destructor kills what is still running and deletes it.
class Container {
 public:
  struct Spec {
    std::vector<std::string> args;  // process.args: the init's prefix and the command
    bool terminal = false;          // a pseudo-terminal through runc's console socket, as `docker run -it`
  };
  explicit Container(Spec spec);
  ~Container();
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  // `runc run -d` (stdout and stderr: a pipe read by Output; or the terminal). "" or what went wrong.
  std::string Run();
  // `runc create`: PID 1 exists and waits in runc's init, before the exec. "" or what went wrong.
  std::string Create();
  // `runc start` after Create, without waiting for it: PID 1 execs the init. Returns the runc process's pid.
  pid_t StartAsync();

  pid_t pid() const { return pid_; }  // PID 1, as the host sees it.
  // Reads the container's output until `text` has appeared or `seconds` passed; true if it appeared.
  bool WaitFor(const std::string& text, double seconds);
  // Reads the container's output until EOF (every process holding it has exited) or `seconds` passed.
  void Drain(double seconds) { WaitFor(std::string(1, '\0'), seconds); }
  const std::string& output() const { return output_; }
  // Writes to the terminal (terminal spec only): "\x03" is Ctrl-C, "\x1a" Ctrl-Z.
  bool Type(const std::string& keys);
  // `runc kill ID SIGNAL`: SIGNAL to PID 1, as `docker stop`/`docker kill` send it. True if runc succeeded.
  bool Kill(const std::string& signal);
  // PID 1's exit status as a shell reports it (128 + N if killed), or -1 if still running after `seconds`.
  int Wait(double seconds);
  // Peak RSS in KiB of PID 1 and its reaped children, from wait4() (after Wait returned a status).
  long max_rss_kib() const { return max_rss_kib_; }
  // A process whose parent is PID 1 (the host's pid), 0 if none: the application.
  pid_t Child() const;

 private:
  std::string id_, dir_;
  Spec spec_;
  pid_t pid_ = 0, start_pid_ = 0;
  int output_fd_ = -1;  // The pipe's read end, or the terminal's master.
  std::string output_;
  bool created_ = false, reaped_ = false;
  int status_ = -1;
  long max_rss_kib_ = 0;
};

// What /proc/PID/stat says of a process: its name, state letter ('S', 'T', 'Z', ...) and parent; "", 0 and 0 once
// it is gone.
struct ProcStat {
  std::string comm;
  char state = 0;
  pid_t parent = 0;
};
ProcStat ReadProcStat(pid_t pid);

// A child of `parent` (named `comm`, where one is given) from /proc, or 0 if it has none.
pid_t ChildOf(pid_t parent, const std::string& comm = "");

// One process state letter from /proc/PID/stat ('S', 'T', 'Z', ...), or 0 if it is gone.
char ProcessState(pid_t pid);

// CLOCK_MONOTONIC in seconds (tests/testing/run.h).
using coreutils_testing::Now;

}  // namespace container_testing

#endif  // TESTS_CONTAINER_RUNTIME_H_
