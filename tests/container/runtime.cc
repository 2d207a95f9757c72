#include "tests/container/runtime.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/testing/run.h"

extern char** environ;

namespace container_testing {

using coreutils_testing::RunfilePath;
namespace {

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

std::string Errno(const std::string& what) { return what + ": " + strerror(errno); }

int ShellStatus(int wstatus) {
  if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return -1;
}

// waitpid with a limit; -1 (and the child KILLed and reaped) if it ran past it.
int WaitLimited(pid_t pid, double limit_seconds) {
  const double deadline = Now() + limit_seconds;
  int wstatus;
  for (;;) {
    const pid_t got = waitpid(pid, &wstatus, WNOHANG);
    if (got == pid) return ShellStatus(wstatus);
    if (got < 0 && errno != EINTR) return -1;
    if (Now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      return -1;
    }
    usleep(1000);
  }
}

int DevNull() {
  static const int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  return fd;
}

void ReadAvailable(int fd, std::string* out) {
  char buf[4096];
  for (;;) {
    const ssize_t got = read(fd, buf, sizeof buf);
    if (got > 0) {
      out->append(buf, got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      return;
    }
  }
}

bool WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return false;
  const bool ok = write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  fchmod(fd, mode);
  return close(fd) == 0 && ok;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c < 0x20) {
      char esc[8];
      snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + JsonString(item);
  return "[" + out + "]";
}

// The container's config.json: close to `runc spec`'s default (Docker's namespaces and capabilities), over the
// shared rootfs, read-only.
std::string Config(const std::vector<std::string>& args, bool terminal, const std::string& rootfs) {
  std::vector<std::string> env = {"PATH=/bin", "TERM=xterm"};
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"}) {  // Sanitizer builds: as the test runner has them.
    if (const char* value = getenv(name)) env.push_back(std::string(name) + "=" + value);
  }
  const std::string caps = R"(["CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE"])";
  return std::string(R"({
  "ociVersion": "1.0.2",
  "process": {
    "terminal": )") + (terminal ? "true" : "false") + R"(,
    "user": {"uid": 0, "gid": 0},
    "args": )" + JsonList(args) + R"(,
    "env": )" + JsonList(env) + R"(,
    "cwd": "/",
    "capabilities": {"bounding": )" + caps + R"(, "effective": )" + caps + R"(, "permitted": )" + caps +
         R"(, "ambient": )" + caps + R"(},
    "rlimits": [{"type": "RLIMIT_NOFILE", "hard": 1024, "soft": 1024}],
    "noNewPrivileges": true
  },
  "root": {"path": )" + JsonString(rootfs) + R"(, "readonly": true},
  "hostname": "container-test",
  "mounts": [
    {"destination": "/proc", "type": "proc", "source": "proc"},
    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
     "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
    {"destination": "/dev/pts", "type": "devpts", "source": "devpts",
     "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"]},
    {"destination": "/dev/shm", "type": "tmpfs", "source": "shm",
     "options": ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]}
  ],
  "linux": {
    "namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}],
    "maskedPaths": ["/proc/kcore", "/proc/keys", "/proc/timer_list", "/sys/firmware"],
    "readonlyPaths": ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"]
  }
}
)";
}

// What every container shares: runc's state directory and the unpacked image. Made once, removed at exit.
struct Shared {
  std::string runc, dir, state, rootfs;
  std::string unavailable;  // Why containers cannot run, "" if they can.
};

void RemoveSharedDir();

Shared& TheShared() {
  static Shared* shared = [] {
    auto* s = new Shared;
    if (geteuid() != 0) {
      s->unavailable = "needs root (runc, namespaces, cgroups); CI runs as root";
      return s;
    }
    s->runc = FindProgram("runc");
    const std::string umoci = FindProgram("umoci");
    if (s->runc.empty() || umoci.empty()) {
      s->unavailable = "runc or umoci is not installed (tools/install-deps installs both)";
      return s;
    }
    // Under /tmp, not TEST_TMPDIR: a console socket's path must fit in 108 bytes.
    char dir[] = "/tmp/coreutils-container.XXXXXX";
    if (mkdtemp(dir) == nullptr) {
      s->unavailable = Errno("mkdtemp");
      return s;
    }
    s->dir = dir;
    atexit(RemoveSharedDir);
    s->state = s->dir + "/runc";
    std::string output;
    const std::string binary = RunfilePath("utils/coreutils/coreutils");
    setenv("SOURCE_DATE_EPOCH", "0", 1);  // tools/image would otherwise ask git, which runfiles are not.
    if (Capture({"/bin/bash", RunfilePath("tools/image"), "--binary", binary, s->dir + "/image"}, &output) != 0) {
      s->unavailable = "tools/image failed: " + output;
      return s;
    }
    if (Capture({umoci, "unpack", "--image", s->dir + "/image:latest", s->dir + "/bundle"}, &output) != 0) {
      s->unavailable = "umoci unpack failed: " + output;
      return s;
    }
    s->rootfs = s->dir + "/bundle/rootfs";
    std::string error;
    for (const char* mount_point : {"/proc", "/dev"}) mkdir((s->rootfs + mount_point).c_str(), 0755);
    if (error.empty()) error = CopyIn(RunfilePath("tests/container/app"), s->rootfs, "/app", 0755);
    if (error.empty()) error = CopyIn(RunfilePath("tests/container/nop"), s->rootfs, "/nop", 0755);
    if (error.empty()) error = CopyIn(RunfilePath("tests/container/floor"), s->rootfs, "/floor", 0755);
    if (error.empty() && !WriteFile(s->rootfs + "/noexec", "#!/bin/true\n", 0644)) error = Errno("noexec");
    // Sanitizer builds: /coreutils is dynamic; its loader and libraries come in at their host paths.
    if (error.empty()) error = CopyLibraries(binary, s->rootfs);
    if (error.empty() && Exists("/usr/bin/tini-static")) error = CopyIn("/usr/bin/tini-static", s->rootfs, "/tini", 0755);
    if (error.empty() && Exists("/usr/bin/dumb-init")) {
      error = CopyIn("/usr/bin/dumb-init", s->rootfs, "/dumb-init", 0755);
      if (error.empty()) error = CopyLibraries("/usr/bin/dumb-init", s->rootfs);
    }
    if (!error.empty()) {
      s->unavailable = "cannot fill the rootfs: " + error;
      return s;
    }
    return s;
  }();
  return *shared;
}

void RemoveSharedDir() {
  std::string output;
  Capture({"/bin/rm", "-rf", TheShared().dir}, &output);
}

void BecomeSubreaper() {
  static const bool done = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
  (void)done;
}

}  // namespace

std::string CopyIn(const std::string& host, const std::string& rootfs, const std::string& dest, mode_t mode) {
  std::string output;
  const std::string target = rootfs + dest;
  const std::string parent = target.substr(0, target.rfind('/'));
  if (Capture({"/bin/mkdir", "-p", parent}, &output) != 0) return output;
  if (Capture({"/bin/cp", "-L", host, target}, &output) != 0) return output;
  if (chmod(target.c_str(), mode) != 0) return Errno("chmod " + target);
  return "";
}

std::string CopyLibraries(const std::string& program, const std::string& rootfs) {
  std::string output;
  if (Capture({"/usr/bin/ldd", program}, &output) != 0) return "";  // "not a dynamic executable": nothing needed.
  for (size_t pos = 0; (pos = output.find('/', pos)) != std::string::npos;) {
    const size_t end = output.find_first_of(" \n", pos);
    const std::string library = output.substr(pos, end - pos);
    pos = end;
    if (std::string error = CopyIn(library, rootfs, library, 0755); !error.empty()) return error;
  }
  return "";
}

bool ReadUntil(int* fd, std::string* output, const std::string& text, double seconds) {
  const double deadline = Now() + seconds;
  while (output->find(text) == std::string::npos) {
    const double left = deadline - Now();
    if (*fd < 0 || left <= 0) return false;
    pollfd pfd = {*fd, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(left * 1000) + 1) <= 0) continue;
    char buf[4096];
    const ssize_t got = read(*fd, buf, sizeof buf);
    if (got > 0) {
      output->append(buf, got);
    } else if (got == 0 || errno != EINTR) {
      close(*fd);  // EOF, or EIO once no process holds the terminal.
      *fd = -1;
    }
  }
  return true;
}

pid_t Spawn(const std::vector<std::string>& argv, int in, int out, int err) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  const int fds[3] = {in, out, err};
  int copies[3];
  for (int i = 0; i < 3; ++i) copies[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);  // Safe from the dup2s below.
  for (int i = 0; i < 3; ++i) dup2(copies[i], i);
  execve(cargv[0], cargv.data(), environ);
  dprintf(2, "%s: %s\n", cargv[0], strerror(errno));
  _exit(127);
}

std::string FindProgram(const std::string& name) {
  std::string path = getenv("PATH") ? getenv("PATH") : "";
  path += ":/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string candidate = path.substr(start, end - start) + "/" + name;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

int Capture(const std::vector<std::string>& argv, std::string* output, double limit_seconds) {
  return Capture(argv, output, nullptr, limit_seconds);
}

int Capture(const std::vector<std::string>& argv, std::string* out, std::string* err, double limit_seconds) {
  std::string* sinks[2] = {out, err != nullptr ? err : out};  // Without `err`, one pipe for both.
  int pipes[2][2] = {{-1, -1}, {-1, -1}};
  for (int i = 0; i < (err != nullptr ? 2 : 1); ++i) {
    sinks[i]->clear();
    if (pipe2(pipes[i], O_CLOEXEC) != 0) {
      for (int j = 0; j < i; ++j) close(pipes[j][0]), close(pipes[j][1]);
      return -1;
    }
  }
  const pid_t pid = Spawn(argv, DevNull(), pipes[0][1], err != nullptr ? pipes[1][1] : pipes[0][1]);
  for (auto& p : pipes) {
    if (p[1] >= 0) close(p[1]);
  }
  pollfd fds[2] = {{pipes[0][0], POLLIN, 0}, {pipes[1][0], POLLIN, 0}};  // poll() skips a -1.
  const double deadline = Now() + limit_seconds;
  bool past = false;
  while (pid > 0 && (fds[0].fd >= 0 || fds[1].fd >= 0)) {  // Until each pipe reaches EOF, or the deadline.
    const double left = deadline - Now();
    const int ready = left <= 0 ? 0 : poll(fds, 2, static_cast<int>(left * 1000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    past = ready == 0;
    if (ready <= 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) sinks[i]->append(buf, got);
      if (got == 0 || (got < 0 && errno != EINTR)) close(fds[i].fd), fds[i].fd = -1;
    }
  }
  for (const pollfd& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  if (pid < 0) return -1;
  if (past) {
    kill(pid, SIGKILL);
    WaitLimited(pid, 10);
    return -1;
  }
  return WaitLimited(pid, std::max(0.0, deadline - Now()) + 1);
}

std::string RuncUnavailable() {
  static const std::string* reason = [] {
    Shared& shared = TheShared();
    if (!shared.unavailable.empty()) return new std::string(shared.unavailable);
    // The smallest container (/nop, no init): a runtime that cannot run it cannot run any scenario.
    Container probe({{"/nop"}});
    std::string error = probe.Run();
    if (error.empty() && probe.Wait(30) != 0) error = "/nop did not exit 0: " + probe.output();
    return new std::string(error.empty() ? "" : "runc cannot run a container here: " + error);
  }();
  return *reason;
}

Init Ours() {
  const std::string host = RunfilePath("utils/coreutils/coreutils");
  return {"ours", {"/coreutils", "timeout", "0"}, {host, "timeout", "0"}};
}
Init Tini() { return {"tini", {"/tini", "--"}, {"/usr/bin/tini-static", "--"}}; }
Init DumbInit() { return {"dumb-init", {"/dumb-init"}, {"/usr/bin/dumb-init"}}; }

bool Installed(const Init& init) { return Exists(init.host_prefix[0]); }

std::string ImageLayout() { return TheShared().dir + "/image"; }
std::string Rootfs() { return TheShared().rootfs; }

Container::Container(Spec spec) : spec_(std::move(spec)) {
  static int serial = 0;
  id_ = "coreutils-" + std::to_string(getpid()) + "-" + std::to_string(serial++);
  dir_ = TheShared().dir + "/" + id_;
}

Container::~Container() {
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGKILL);  // PID 1's death takes the whole namespace with it.
    Wait(10);
  }
  if (start_pid_ > 0) WaitLimited(start_pid_, 30);
  std::string output;
  if (created_) Capture({TheShared().runc, "--root", TheShared().state, "delete", "--force", id_}, &output, 30);
  if (output_fd_ >= 0) close(output_fd_);
  for (const char* file : {"/config.json", "/pid", "/console.sock"}) unlink((dir_ + file).c_str());
  rmdir(dir_.c_str());
}

std::string Container::Run() {
  const Shared& shared = TheShared();
  if (!shared.unavailable.empty()) return shared.unavailable;
  BecomeSubreaper();
  if (mkdir(dir_.c_str(), 0700) != 0) return Errno("mkdir " + dir_);
  if (!WriteFile(dir_ + "/config.json", Config(spec_.args, spec_.terminal, shared.rootfs), 0644)) {
    return Errno("config.json");
  }
  std::vector<std::string> argv = {shared.runc, "--root", shared.state, "run", "--detach",
                                   "--pid-file", dir_ + "/pid", "--bundle", dir_};
  int listener = -1;
  const std::string socket_path = dir_ + "/console.sock";
  if (spec_.terminal) {
    listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr = {};
    addr.sun_family = AF_UNIX;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", socket_path.c_str());
    if (listener < 0 || bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(listener, 1) != 0) {
      return Errno("console socket " + socket_path);
    }
    argv.insert(argv.end(), {"--console-socket", socket_path});
  }
  argv.push_back(id_);
  // Detached without a terminal, runc hands its own stdout and stderr to PID 1: one pipe, read by WaitFor. With a
  // terminal the pipe only gets runc's own messages.
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return Errno("pipe");
  const pid_t runc = Spawn(argv, DevNull(), p[1], p[1]);
  close(p[1]);
  created_ = true;
  std::string error;
  if (spec_.terminal) {
    pollfd pfd = {listener, POLLIN, 0};
    const int conn = poll(&pfd, 1, 30000) == 1 ? accept4(listener, nullptr, nullptr, SOCK_CLOEXEC) : -1;
    if (conn < 0) {
      error = "runc never connected to the console socket";
    } else {
      char byte;
      iovec iov = {&byte, 1};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
      msghdr msg = {};
      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      if (recvmsg(conn, &msg, MSG_CMSG_CLOEXEC) < 0 || CMSG_FIRSTHDR(&msg) == nullptr) {
        error = Errno("receiving the terminal");
      } else {
        memcpy(&output_fd_, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
      }
      close(conn);
    }
    close(listener);
  }
  const int status = WaitLimited(runc, 30);
  if (!spec_.terminal) {
    output_fd_ = p[0];
  } else {
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    std::string runc_output;
    ReadAvailable(p[0], &runc_output);
    close(p[0]);
    if (status != 0) error += runc_output;
  }
  if (status != 0) {
    if (!spec_.terminal) {
      fcntl(output_fd_, F_SETFL, O_NONBLOCK);
      ReadAvailable(output_fd_, &output_);
    }
    return "runc run exited " + std::to_string(status) + ": " + error + output_;
  }
  if (!error.empty()) return error;
  pid_ = atoi(coreutils_testing::ReadFile(dir_ + "/pid").c_str());
  return pid_ > 0 ? "" : "runc wrote no pid";
}

std::string Container::Create() {
  const Shared& shared = TheShared();
  if (!shared.unavailable.empty()) return shared.unavailable;
  BecomeSubreaper();
  if (mkdir(dir_.c_str(), 0700) != 0) return Errno("mkdir " + dir_);
  if (!WriteFile(dir_ + "/config.json", Config(spec_.args, false, shared.rootfs), 0644)) return Errno("config");
  const pid_t runc = Spawn({shared.runc, "--root", shared.state, "create", "--pid-file", dir_ + "/pid", "--bundle",
                            dir_, id_},
                           DevNull(), DevNull(), DevNull());
  created_ = true;
  const int status = WaitLimited(runc, 30);
  if (status != 0) return "runc create exited " + std::to_string(status);
  pid_ = atoi(coreutils_testing::ReadFile(dir_ + "/pid").c_str());
  return pid_ > 0 ? "" : "runc wrote no pid";
}

pid_t Container::StartAsync() {
  start_pid_ = Spawn({TheShared().runc, "--root", TheShared().state, "start", id_}, DevNull(), DevNull(), DevNull());
  return start_pid_;
}

bool Container::WaitFor(const std::string& text, double seconds) {
  return ReadUntil(&output_fd_, &output_, text, seconds);
}

bool Container::Type(const std::string& keys) {
  return spec_.terminal && output_fd_ >= 0 &&
         write(output_fd_, keys.data(), keys.size()) == static_cast<ssize_t>(keys.size());
}

bool Container::Kill(const std::string& signal) {
  std::string output;
  return Capture({TheShared().runc, "--root", TheShared().state, "kill", id_, signal}, &output, 30) == 0;
}

int Container::Wait(double seconds) {
  // `runc start` returns once runc's init has been let go to exec PID 1's program, not after the exec (a signal sent
  // at once can land before it): reaped here, it says nothing of PID 1.
  if (start_pid_ > 0) WaitLimited(start_pid_, 30), start_pid_ = 0;
  if (reaped_ || pid_ <= 0) return status_;
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd < 0) return -1;
  pollfd pfd = {pidfd, POLLIN, 0};
  const int ready = poll(&pfd, 1, static_cast<int>(seconds * 1000));
  close(pidfd);
  int wstatus;
  rusage usage;
  if (ready != 1 || wait4(pid_, &wstatus, WNOHANG, &usage) != pid_) return -1;
  reaped_ = true;
  status_ = ShellStatus(wstatus);
  max_rss_kib_ = usage.ru_maxrss;
  return status_;
}

pid_t Container::Child() const { return ChildOf(pid_); }

ProcStat ReadProcStat(pid_t pid) {
  const std::string stat = coreutils_testing::ReadFile("/proc/" + std::to_string(pid) + "/stat");
  const size_t open = stat.find('('), close = stat.rfind(')');  // "PID (COMM) STATE PPID ...": COMM may hold spaces.
  if (open == std::string::npos || close == std::string::npos || stat.size() < close + 4) return {};
  return {stat.substr(open + 1, close - open - 1), stat[close + 2], static_cast<pid_t>(atoi(stat.c_str() + close + 4))};
}

char ProcessState(pid_t pid) { return ReadProcStat(pid).state; }

pid_t ChildOf(pid_t parent, const std::string& comm) {
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return 0;
  pid_t child = 0;
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = atoi(entry->d_name);
    if (pid <= 0) continue;
    const ProcStat stat = ReadProcStat(pid);
    if (stat.parent == parent && (comm.empty() || stat.comm == comm)) {
      child = pid;
      break;
    }
  }
  closedir(proc);
  return child;
}

}  // namespace container_testing
