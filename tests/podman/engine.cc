#include "tests/podman/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tests/container/runtime.h"
#include "tests/podman/watchdog.h"
#include "tests/testing/run.h"

namespace podman_testing {
namespace {

using container_testing::Capture;
using container_testing::CopyIn;
using container_testing::CopyLibraries;
using container_testing::FindProgram;
using coreutils_testing::Now;
using coreutils_testing::ReadFile;
using coreutils_testing::RunfilePath;

struct Engine {
  std::string podman, skopeo, umoci, runc;
  std::string dir;                           // Everything of the engine's but the runroot; "" until made.
  std::string runroot;                       // /tmp/podman-run.XXXXXX: podman refuses a runroot over 50 bytes.
  std::set<std::string> ids;                 // Containers and pods this process made (Remember).
  std::vector<std::string> bound;            // Host paths with one of dir's directories bound over them.
  bool rlimit_workaround = false;
  Watchdog watchdog;  // Cleans up if this process dies before TearDown (watchdog.h).
  std::string unavailable;  // Why podman cannot run here: the tests skip.
  std::string broken;       // What of ours failed (the image not built or loaded): the tests fail.
};

Engine& TheEngine() {
  static Engine* engine = new Engine;
  return *engine;
}

std::string Errno(const std::string& what) { return what + ": " + strerror(errno); }

// podman and skopeo with the engine's global options (its storage, state, policy and scratch), then `args`.
std::vector<std::string> PodmanArgv(const Engine& e, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {e.podman, "--root", e.dir + "/root", "--runroot", e.runroot};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}
std::vector<std::string> SkopeoArgv(const Engine& e, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {e.skopeo, "--policy", e.dir + "/policy.json", "--tmpdir", e.dir + "/tmp"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

bool WriteFile(const std::string& path, const std::string& content, mode_t mode = 0644) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return false;
  const bool ok = write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  return fchmod(fd, mode) == 0 && close(fd) == 0 && ok;
}

// A 132-byte static AArch64 executable that exits 0: the index's arm64 manifest needs an AArch64 binary, and no
// cross toolchain is needed for one that no test runs (the engine must pick amd64). No section headers, so
// tools/image takes it as stripped.
std::string WriteArm64Stub(const std::string& path) {
  std::string elf(132, '\0');
  auto put = [&elf](size_t at, unsigned long long value, int bytes) {
    for (int i = 0; i < bytes; ++i) elf[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  };
  const unsigned long long base = 0x400000, entry = base + 120;
  put(0, 0x464c457f, 4);  // "\x7fELF"
  put(4, 2, 1);           // 64-bit
  put(5, 1, 1);           // little-endian
  put(6, 1, 1);           // ELF version 1
  put(16, 2, 2);          // ET_EXEC
  put(18, 183, 2);        // EM_AARCH64
  put(20, 1, 4);          // e_version
  put(24, entry, 8);      // e_entry
  put(32, 64, 8);         // e_phoff: the one program header follows the ELF header
  put(52, 64, 2);         // e_ehsize
  put(54, 56, 2);         // e_phentsize
  put(56, 1, 2);          // e_phnum
  put(64, 1, 4);          // PT_LOAD
  put(68, 5, 4);          // PF_R | PF_X
  put(80, base, 8);       // p_vaddr (p_offset 0: the whole file)
  put(88, base, 8);       // p_paddr
  put(96, elf.size(), 8);   // p_filesz
  put(104, elf.size(), 8);  // p_memsz
  put(112, 0x1000, 8);      // p_align
  put(120, 0xd2800000, 4);  // mov x0, #0
  put(124, 0xd2800ba8, 4);  // mov x8, #93 (exit)
  put(128, 0xd4000001, 4);  // svc #0
  return WriteFile(path, elf, 0755) ? "" : Errno(path);
}

constexpr char kTini[] = "/usr/bin/tini-static";

// Root, the programs, and the build under test is this one's.
std::string CheckPrerequisites(Engine* e) {
  if (geteuid() != 0) return "needs root (podman rootful, namespaces, cgroups); CI runs as root";
  if (std::string why = ForeignBinary(); !why.empty()) return why;
  e->podman = FindProgram("podman");
  e->skopeo = FindProgram("skopeo");
  e->umoci = FindProgram("umoci");
  e->runc = FindProgram("runc");
  std::string missing;
  for (const char* program : {"podman", "conmon", "runc", "skopeo", "umoci", "catatonit"}) {
    if (FindProgram(program).empty()) missing += std::string(missing.empty() ? "" : ", ") + program;
  }
  // The test image's /tini, the peer of README's table (Debian's tini-static: the image has no libc).
  if (access("/usr/bin/tini-static", X_OK) != 0) missing += std::string(missing.empty() ? "" : ", ") + kTini;
  if (missing.empty()) return "";
  return "not installed: " + missing + " (tools/install-deps installs them: podman, skopeo, catatonit, runc, umoci, "
         "tini)";
}

// A private mount namespace whose /var/lib/containers, /var/tmp and /run/runc are the engine's own directories. A
// host path that is absent is made (empty, as podman or runc would make it) and left: another test process may
// have its own directory bound over it at the same time.
std::string EnterMountNamespace(Engine* e) {
  if (unshare(CLONE_NEWNS) != 0) return Errno("unshare(CLONE_NEWNS)");
  // Nothing mounted from here on propagates to the host, and the namespace ends with the processes in it.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return Errno("mount --make-rprivate /");
  for (const char* host : {"/var/lib/containers", "/var/tmp", "/run/runc"}) {
    std::string own = e->dir + "/host" + host;  // DIR/host-var-lib-containers, ...
    std::replace(own.begin() + e->dir.size() + 1, own.end(), '/', '-');
    if (mkdir(own.c_str(), 0700) != 0) return Errno("mkdir " + own);
    if (mkdir(host, 0700) != 0 && errno != EEXIST) return Errno(std::string("mkdir ") + host);
    if (mount(own.c_str(), host, nullptr, MS_BIND, nullptr) != 0) return Errno(std::string("bind ") + host);
    e->bound.push_back(host);
  }
  return "";
}

// storage.conf and containers.conf, named by the environment for podman, skopeo and conmon's exit command.
std::string WriteConfiguration(const Engine& e) {
  const std::string& d = e.dir;
  const std::string storage = "[storage]\ndriver = \"vfs\"\ngraphroot = \"" + d + "/root\"\nrunroot = \"" +
                              e.runroot + "\"\n";
  const std::string containers =
      std::string("[containers]\nnetns = \"none\"\ncgroups = \"no-conmon\"\n") +
      (e.rlimit_workaround ? "default_ulimits = []\n" : "") +
      "[network]\nnetwork_config_dir = \"" + d + "/net\"\n" +
      // File locks in tmp_dir/locks: podman's default, shm, leaves /dev/shm/libpod_lock behind.
      "[engine]\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\nlock_type = \"file\"\n" +
      "tmp_dir = \"" + d + "/tmp\"\n" +
      "image_copy_tmp_dir = \"" + d + "/tmp\"\n" +
      // runc, pinned: podman 4.3 takes crun first where both are installed (and crun 1.8.1 refuses this hybrid
      // cgroup host).
      "runtime = \"runc\"\n[engine.runtimes]\nrunc = [\"" + e.runc + "\"]\n";
  const std::string policy = R"({"default": [{"type": "insecureAcceptAnything"}]})";
  if (!WriteFile(d + "/storage.conf", storage) || !WriteFile(d + "/containers.conf", containers) ||
      !WriteFile(d + "/policy.json", policy)) {
    return Errno("writing the configuration");
  }
  setenv("CONTAINERS_STORAGE_CONF", (d + "/storage.conf").c_str(), 1);
  setenv("CONTAINERS_CONF", (d + "/containers.conf").c_str(), 1);
  return "";
}

// The libpod_parent cgroup of each hierarchy (cgroupfs manager), whether it exists or not.
std::vector<std::string> LibpodParents() {
  std::vector<std::string> parents = {"/sys/fs/cgroup/libpod_parent"};
  if (DIR* root = opendir("/sys/fs/cgroup")) {
    while (dirent* entry = readdir(root)) {
      if (entry->d_type == DT_DIR && entry->d_name[0] != '.') {
        parents.push_back(std::string("/sys/fs/cgroup/") + entry->d_name + "/libpod_parent");
      }
    }
    closedir(root);
  }
  return parents;
}

std::string Run(const std::vector<std::string>& argv, const std::string& what) {
  std::string output;
  const int status = Capture(argv, &output, 120);
  return status == 0 ? "" : what + " exited " + std::to_string(status) + ": " + output;
}

// The test image: the index's amd64 manifest, copied out, unpacked, given the test's files, repacked; tagged once
// more with APP_MODE for each mode the pod spec's tests run.
std::string BuildTestImage(const Engine& e, const std::string& binary) {
  const std::string layout = e.dir + "/test-layout", bundle = e.dir + "/test-bundle", rootfs = bundle + "/rootfs";
  std::string error =
      Run(SkopeoArgv(e, {"copy", "-q", "oci:" + Layout() + ":amd64", "oci:" + layout + ":latest"}), "skopeo copy");
  if (error.empty()) error = Run({e.umoci, "unpack", "--image", layout + ":latest", bundle}, "umoci unpack");
  if (error.empty()) error = CopyIn(RunfilePath("tests/container/app"), rootfs, "/app", 0755);
  if (error.empty()) error = CopyIn(kTini, rootfs, "/tini", 0755);
  if (error.empty() && !WriteFile(rootfs + "/noexec", "#!/bin/true\n")) error = Errno("noexec");
  // Sanitizer builds: /coreutils is dynamic; its loader and libraries come in at their host paths.
  if (error.empty()) error = CopyLibraries(binary, rootfs);
  if (error.empty()) error = Run({e.umoci, "repack", "--image", layout + ":latest", bundle}, "umoci repack");
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"}) {  // Sanitizer builds: as the test runner has them.
    const char* value = getenv(name);
    if (error.empty() && value != nullptr) {
      error = Run({e.umoci, "config", "--image", layout + ":latest", "--config.env", std::string(name) + "=" + value},
                  "umoci config");
    }
  }
  for (const char* mode : {"daemon", "immune"}) {
    if (error.empty()) {
      error = Run({e.umoci, "config", "--image", layout + ":latest", "--tag", mode, "--config.env",
                   std::string("APP_MODE=") + mode},
                  "umoci config");
    }
  }
  for (const char* tag : {"latest", "daemon", "immune"}) {
    if (error.empty()) {
      error = Run(SkopeoArgv(e, {"copy", "-q", "oci:" + layout + ":" + tag, "containers-storage:" + TestImage(tag)}),
                  "skopeo copy");
    }
  }
  return error;
}

// tools/image's index of the binary under test and the stand-in, loaded as README says; then the test image.
std::string BuildImages(const Engine& e) {
  const std::string binary = RunfilePath("utils/coreutils/coreutils");
  const std::string stub = e.dir + "/arm64-stub";
  if (std::string error = WriteArm64Stub(stub); !error.empty()) return error;
  setenv("SOURCE_DATE_EPOCH", "0", 1);  // tools/image would otherwise ask git, which runfiles are not.
  std::string error = Run({"/bin/bash", RunfilePath("tools/image"), "--binary", binary, "--binary-arm64", stub,
                           Layout()},
                          "tools/image");
  if (error.empty()) {
    const std::string image = std::string("containers-storage:") + kImage;
    error = Run(SkopeoArgv(e, {"copy", "-q", "oci:" + Layout() + ":latest", image}), "skopeo copy");
  }
  return error.empty() ? BuildTestImage(e, binary) : error;
}

// `podman run` of the test's app (`app exit 0`: not the binary under test, whose failures must fail the tests); once
// more with `default_ulimits = []` if the runtime refused podman's RLIMIT_NOFILE.
std::string Probe(Engine* e) {
  std::string output;
  const std::string cidfile = e->dir + "/probe.cid";
  const std::vector<std::string> run = {"run", "--rm", "--pull", "never", "--cidfile", cidfile, "--entrypoint",
                                        "[\"/app\", \"exit\", \"0\"]", kTestImage};
  int status = Podman(run, &output);
  Remember(ReadFile(cidfile));
  if (status != 0 && output.find("rlimit") != std::string::npos) {
    e->rlimit_workaround = true;
    if (std::string error = WriteConfiguration(*e); !error.empty()) return error;
    unlink(cidfile.c_str());
    status = Podman(run, &output);
    Remember(ReadFile(cidfile));
  }
  return status == 0 ? "" : "podman cannot run a container here (" + std::to_string(status) + "): " + output;
}

// In the watchdog, once the test process has died: its processes KILLed (conmon spared, which podman needs to stop
// its container), then TearDown, with the IDs the test process remembered (told), those podman lists, and those in
// its storage; then whatever is left in the mount namespace.
void CleanUpAfterDeath(const std::vector<std::string>& told) {
  KillMountNamespace({"conmon"}, 10);
  for (const std::string& id : told) Remember(id);
  if (DIR* stored = opendir((TheEngine().dir + "/root/vfs-containers").c_str())) {
    while (dirent* entry = readdir(stored)) Remember(entry->d_name);
    closedir(stored);
  }
  for (const std::string& what : TearDown()) fprintf(stderr, "podman watchdog: left behind: %s\n", what.c_str());
  KillMountNamespace({}, 10);
}

// Sets the engine up: "" or why it cannot run here; e->broken where it is the image's fault.
std::string SetUp(Engine* e) {
  if (std::string error = CheckPrerequisites(e); !error.empty()) return error;
  e->dir = coreutils_testing::MakeTempDir();
  char runroot[] = "/tmp/podman-run.XXXXXX";
  if (mkdtemp(runroot) == nullptr) return Errno("mkdtemp");
  e->runroot = runroot;
  for (const char* sub : {"/tmp", "/net"}) mkdir((e->dir + sub).c_str(), 0700);
  prctl(PR_SET_CHILD_SUBREAPER, 1);  // conmon daemonizes: it, and what it leaves, come back to this process.
  if (std::string error = EnterMountNamespace(e); !error.empty()) return error;
  if (std::string error = WriteConfiguration(*e); !error.empty()) return error;
  e->watchdog = StartWatchdog(CleanUpAfterDeath);  // Before podman makes anything.
  e->broken = BuildImages(*e);
  return e->broken.empty() ? Probe(e) : "";
}

pid_t ParentOf(pid_t pid) { return container_testing::ReadProcStat(pid).parent; }

bool DescendsFromUs(pid_t pid) {
  for (int depth = 0; pid > 1 && depth < 64; ++depth) {
    pid = ParentOf(pid);
    if (pid == getpid()) return true;
  }
  return false;
}

std::string Comm(pid_t pid) {
  std::string comm = ReadFile("/proc/" + std::to_string(pid) + "/comm");
  if (!comm.empty() && comm.back() == '\n') comm.pop_back();
  return comm;
}

// Visits every directory below `dir`, deepest first.
void PostOrder(const std::string& dir, const std::function<void(const std::string&)>& visit) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> subdirs;
  while (dirent* entry = readdir(d)) {
    if (entry->d_type == DT_DIR && strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) {
      subdirs.push_back(dir + "/" + entry->d_name);
    }
  }
  closedir(d);
  for (const std::string& sub : subdirs) {
    PostOrder(sub, visit);
    visit(sub);
  }
}

// KILLs the processes in `group` (reported: nothing should be left there by now), and waits up to 5 s for them to
// leave it, as they do when they exit.
std::vector<std::string> EmptyCgroup(const std::string& group) {
  const std::string procs = ReadFile(group + "/cgroup.procs");
  if (procs.empty()) return {};
  std::string pids;
  for (size_t at = 0; at < procs.size(); at = procs.find('\n', at) + 1) {
    kill(atoi(procs.c_str() + at), SIGKILL);
    pids += " " + procs.substr(at, procs.find('\n', at) - at);
    if (procs.find('\n', at) == std::string::npos) break;
  }
  for (const double deadline = Now() + 5; Now() < deadline && !ReadFile(group + "/cgroup.procs").empty();) {
    const timespec tick = {0, 20 * 1000 * 1000};
    nanosleep(&tick, nullptr);
  }
  return {"processes KILLed in cgroup " + group + ":" + pids};
}

// Removes the cgroups of the remembered containers and pods (podman 4.3 leaves a pod's in the name=systemd and
// unified hierarchies), KILLing what is still in them; then libpod_parent and its conmon group, wherever they are
// empty: podman makes them and never removes them, and it makes them again when it needs them.
std::vector<std::string> RemoveCgroups(const Engine& e) {
  std::vector<std::string> left;
  for (const std::string& parent : LibpodParents()) {
    PostOrder(parent, [&](const std::string& group) {
      const bool ours = std::any_of(e.ids.begin(), e.ids.end(), [&](const std::string& id) {
        return group.find(id, parent.size()) != std::string::npos;
      });
      if (!ours) return;
      for (const std::string& killed : EmptyCgroup(group)) left.push_back(killed);
      if (rmdir(group.c_str()) != 0 && errno != ENOENT) left.push_back(Errno("cgroup " + group));
    });
    for (const std::string& group : {parent + "/conmon", parent}) {
      rmdir(group.c_str());  // EBUSY while another podman's containers are in it: left to that podman.
    }
  }
  return left;
}

std::vector<std::string> MountsUnder(const std::string& dir) {
  std::vector<std::string> mounts;
  const std::string info = ReadFile("/proc/self/mountinfo");
  for (size_t start = 0; start < info.size();) {
    size_t end = info.find('\n', start);
    if (end == std::string::npos) end = info.size();
    const std::string line = info.substr(start, end - start);
    start = end + 1;
    // "ID PARENT MAJ:MIN ROOT MOUNT_POINT ...": the fifth field.
    size_t field = 0;
    for (int i = 0; i < 4 && field != std::string::npos; ++i) field = line.find(' ', field + 1);
    if (field == std::string::npos) continue;
    const std::string point = line.substr(field + 1, line.find(' ', field + 1) - field - 1);
    if (point.compare(0, dir.size(), dir) == 0) mounts.push_back("mounted: " + point);
  }
  return mounts;
}

}  // namespace

std::string PodmanUnavailable() {
  static const std::string* reason = [] {
    Engine& e = TheEngine();
    e.unavailable = SetUp(&e);
    return new std::string(e.unavailable);
  }();
  return *reason;
}

std::string ForeignBinary() {
  return getenv("COREUTILS_TEST_BINARY") == nullptr
             ? ""
             : "the image holds this build's own binary; $COREUTILS_TEST_BINARY (tools/qemu-test) names another one";
}

std::string PodmanSetUpFailure() {
  PodmanUnavailable();
  return TheEngine().broken;
}

bool RlimitWorkaround() { return TheEngine().rlimit_workaround; }

std::string TestImage(const std::string& tag) { return "localhost/coreutils-test:" + tag; }

std::string Directory() { return TheEngine().dir; }

std::string Layout() { return TheEngine().dir + "/image"; }

int Podman(const std::vector<std::string>& args, std::string* output, double limit_seconds) {
  return Capture(PodmanArgv(TheEngine(), args), output, limit_seconds);
}

int Skopeo(const std::vector<std::string>& args, std::string* output, double limit_seconds) {
  return Capture(SkopeoArgv(TheEngine(), args), output, limit_seconds);
}

int Podman(const std::vector<std::string>& args, Output* output, double limit_seconds) {
  return Capture(PodmanArgv(TheEngine(), args), &output->out, &output->err, limit_seconds);
}

int Skopeo(const std::vector<std::string>& args, Output* output, double limit_seconds) {
  return Capture(SkopeoArgv(TheEngine(), args), &output->out, &output->err, limit_seconds);
}

pid_t SpawnPodman(const std::vector<std::string>& args, int* output_fd) {
  const std::vector<std::string> argv = PodmanArgv(TheEngine(), args);
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return -1;
  const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t pid = container_testing::Spawn(argv, null, p[1], p[1]);
  close(null);
  close(p[1]);
  *output_fd = p[0];
  return pid;
}

int WaitChild(pid_t pid, double seconds) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) return -1;
  pollfd pfd = {pidfd, POLLIN, 0};
  const int ready = poll(&pfd, 1, static_cast<int>(seconds * 1000));
  close(pidfd);
  int wstatus;
  if (ready != 1 || waitpid(pid, &wstatus, 0) != pid) return -1;
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

void Remember(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    size_t j = i;
    while (j < text.size() && isxdigit(static_cast<unsigned char>(text[j])) && !isupper(text[j])) ++j;
    if (j - i == 64 && TheEngine().ids.insert(text.substr(i, 64)).second) {
      Tell(TheEngine().watchdog, text.substr(i, 64));
    }
    i = j + 1;
  }
}

std::vector<std::string> Descendants(double seconds, const std::set<pid_t>& except) {
  const double deadline = Now() + seconds;
  for (;;) {
    std::vector<pid_t> alive;
    std::vector<std::string> described;
    DIR* proc = opendir("/proc");
    while (dirent* entry = proc ? readdir(proc) : nullptr) {
      const pid_t pid = atoi(entry->d_name);
      if (pid <= 0 || pid == getpid() || pid == TheEngine().watchdog.pid || except.count(pid) != 0 ||
          !DescendsFromUs(pid)) {
        continue;
      }
      if (container_testing::ProcessState(pid) == 'Z') {
        if (ParentOf(pid) == getpid()) waitpid(pid, nullptr, WNOHANG);  // Reparented to us, the subreaper.
        continue;
      }
      alive.push_back(pid);
      described.push_back(std::to_string(pid) + " " + Comm(pid));
    }
    if (proc != nullptr) closedir(proc);
    const double left = deadline - Now();
    if (alive.empty() || left <= 0) return described;
    // Wait for one of them to end (a pidfd is readable once its process has exited), then look again.
    std::vector<pollfd> fds;
    for (pid_t pid : alive) {
      const int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
      if (fd >= 0) fds.push_back({fd, POLLIN, 0});
    }
    poll(fds.data(), fds.size(), static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    for (const pollfd& fd : fds) close(fd.fd);
  }
}

std::vector<std::string> TearDown() {
  Engine& e = TheEngine();
  if (e.dir.empty() || e.podman.empty()) return {};
  std::vector<std::string> left;
  std::string output;
  for (const std::vector<std::string>& list : {std::vector<std::string>{"ps", "-a", "-q", "--no-trunc"},
                                                std::vector<std::string>{"pod", "ps", "-q", "--no-trunc"}}) {
    Podman(list, &output);
    Remember(output);
  }
  Podman({"pod", "rm", "--all", "--force", "--time", "0"}, &output);
  Podman({"rm", "--all", "--force", "--time", "0"}, &output);
  Podman({"rmi", "--all", "--force"}, &output);
  for (const std::vector<std::string>& list : {std::vector<std::string>{"ps", "-a", "-q"},
                                                std::vector<std::string>{"pod", "ps", "-q"},
                                                std::vector<std::string>{"images", "-a", "-q"}}) {
    // (A podman that cannot run, the reason tests were skipped, lists nothing.)
    Output listed;
    if (Podman(list, &listed) == 0 && !listed.out.empty()) {
      left.push_back("podman " + list[0] + " still lists: " + listed.out);
    }
  }
  for (const std::string& process : Descendants(30)) {
    left.push_back("still running after 30 s: " + process);
    kill(atoi(process.c_str()), SIGKILL);
  }
  Descendants(10);  // Reaps what was just KILLed.
  std::vector<std::string> mounts = MountsUnder(e.dir);
  for (const std::string& mount : MountsUnder(e.runroot)) mounts.push_back(mount);
  left.insert(left.end(), mounts.begin(), mounts.end());
  for (const std::string& cgroup : RemoveCgroups(e)) left.push_back(cgroup);
  for (const std::string& mount : mounts) umount2(mount.c_str() + strlen("mounted: "), MNT_DETACH);
  for (const std::string& host : e.bound) umount2(host.c_str(), MNT_DETACH);
  e.bound.clear();
  Capture({"/bin/rm", "-rf", e.dir, e.runroot}, &output);  // Never through a mount: they are detached.
  for (const std::string& dir : {e.dir, e.runroot}) {
    if (access(dir.c_str(), F_OK) == 0) left.push_back("not removed: " + dir);
  }
  e.dir.clear();
  e.runroot.clear();
  StopWatchdog(&e.watchdog);
  return left;
}

void CleanUp::TearDown() {
  for (const std::string& what : podman_testing::TearDown()) ADD_FAILURE() << "left behind: " << what;
}

// Every test binary of the engine cleans up after its last test (tests/podman/figures calls TearDown itself).
::testing::Environment* const kCleanUp = ::testing::AddGlobalTestEnvironment(new CleanUp);

}  // namespace podman_testing
