// tests/podman/engine.h -- podman (Debian's, rootful, daemonless) set up for one test process, and taken down.
//
// The first call of PodmanUnavailable() sets it up, once:
// - storage and state of its own: --root under the test's temporary directory, --runroot /tmp/podman-run.XXXXXX
//   (podman refuses one longer than 50 bytes), a storage.conf (the vfs driver: no mount) and a containers.conf
//   (named by CONTAINERS_STORAGE_CONF and CONTAINERS_CONF) with no network (no CNI bridge, iptables rule or
//   /var/lib/cni state), runc as the runtime (not crun, where it is installed too), cgroupfs (no systemd unit), no
//   conmon cgroup, its own tmp_dir and events log, and file locks in tmp_dir (podman's default, shm, leaves
//   /dev/shm/libpod_lock behind);
// - a private mount namespace in which the paths podman 4.3 and skopeo 1.9 use whatever --root says are the test's
//   own directories: /var/lib/containers (the blob-info cache), /var/tmp (big files, the pause image's build) and
//   /run/runc (runc's state). A path absent on the host is made for the bind, empty, and left there (podman or runc
//   would make it): another test process may have its own directory bound over it at the same time;
// - the image: tools/image on the binary under test and a stand-in arm64 binary, a real two-platform index, loaded as
//   README says (`skopeo copy oci:DIR:latest containers-storage:localhost/coreutils:latest`); and the test image,
//   its amd64 manifest plus /app (tests/container/app), /tini (Debian's tini-static) and /noexec, with the sanitizer
//   build's libraries and options where there are any;
// - a probe: `podman run` of the test's app (exit 0). If the runtime refuses podman's RLIMIT_NOFILE (this sandbox's
//   hard limit is below podman's 1048576, and CAP_SYS_RESOURCE is withheld), containers.conf gets
//   `default_ulimits = []` and the probe runs again: the workaround is used only where it is needed.
// The process becomes a child subreaper, so conmon, which daemonizes, and whatever it leaves come back to it. A
// watchdog process (watchdog.h), started before podman makes anything, removes it all if the process dies first.
// TearDown() removes every container, pod and image, checks that no process, mount or cgroup is left, and removes
// the directories.
#ifndef TESTS_PODMAN_ENGINE_H_
#define TESTS_PODMAN_ENGINE_H_

#include <sys/types.h>

#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace podman_testing {

// Why podman cannot run here ("" when it can): not root, programs missing (each of podman, conmon, runc, skopeo,
// umoci, catatonit and /usr/bin/tini-static that is, named), no mount namespace, podman failing to run a container
// (its message), or ForeignBinary(). The tests skip with it (SKIP_FOR_ENVIRONMENT: COREUTILS_REQUIRE_PODMAN=1 fails
// them instead).
std::string PodmanUnavailable();

// Why the image cannot hold the binary under test ("" when it can): $COREUTILS_TEST_BINARY names another one
// (tools/qemu-test's foreign binary; the image holds this build's own). The tests skip for it, required or not.
std::string ForeignBinary();

// What of the tests' own failed while setting up ("" if nothing): tools/image, or loading or extending its image.
// PodmanUnavailable() is then "", and the tests fail with this.
std::string PodmanSetUpFailure();

// Whether containers.conf says `default_ulimits = []`: the runtime refused podman's RLIMIT_NOFILE without it.
bool RlimitWorkaround();

// The image from the index, as a user loads it; the test image (kImage's amd64 manifest with the test's files), whose
// tags `daemon` and `immune` also set APP_MODE for the bare /app of the pod spec.
constexpr char kImage[] = "localhost/coreutils:latest";
constexpr char kTestImage[] = "localhost/coreutils-test:latest";
std::string TestImage(const std::string& tag);  // "localhost/coreutils-test:TAG"

// The engine's directory (under TEST_TMPDIR, else /tmp): a test's scratch files go there too. TearDown removes it.
std::string Directory();

// tools/image's OCI layout: tag `latest` the index of linux/amd64 (the binary under test) and linux/arm64.
std::string Layout();

// The engine's programs with its global options (--root, --runroot) and environment: stdin /dev/null, stdout and
// stderr together in `output`. The status as a shell reports it, -1 if it ran past `limit_seconds`.
int Podman(const std::vector<std::string>& args, std::string* output, double limit_seconds = 60);
int Skopeo(const std::vector<std::string>& args, std::string* output, double limit_seconds = 60);
// The same with stdout and stderr apart, for what a test reads or compares exactly (stdout): a warning on stderr
// cannot change it.
struct Output {
  std::string out, err;
};
int Podman(const std::vector<std::string>& args, Output* output, double limit_seconds = 60);
int Skopeo(const std::vector<std::string>& args, Output* output, double limit_seconds = 60);
// podman started in the background, its stdout and stderr the write end of a pipe whose read end is *output_fd.
pid_t SpawnPodman(const std::vector<std::string>& args, int* output_fd);
// The status of a child from SpawnPodman once it has exited, as a shell reports it; -1 if it is still running after
// `seconds` (then it is left running).
int WaitChild(pid_t pid, double seconds);

// Remembers the 64-hex IDs in `text` (podman's output), containers' and pods': TearDown removes their cgroups.
void Remember(const std::string& text);

// Every process descended from this one other than `except` still alive after waiting up to `seconds` for them to
// end, as "PID COMM", zombie children of ours reaped. Empty when nothing outlived what the caller ended.
std::vector<std::string> Descendants(double seconds, const std::set<pid_t>& except = {});

// Removes every container, pod and image, checks that podman lists none, that no process descended from this one
// is left (those that are get KILLed), no mount under the engine's directory, and none of the remembered cgroups;
// then removes the directories. Returns what was left, one line each (empty: nothing).
std::vector<std::string> TearDown();

// For gtest: TearDown() after the last test, each thing left a failure.
class CleanUp : public ::testing::Environment {
 public:
  void TearDown() override;
};

}  // namespace podman_testing

#endif  // TESTS_PODMAN_ENGINE_H_
