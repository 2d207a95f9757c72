#include "tests/podman/container.h"

#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/container/runtime.h"
#include "tests/podman/engine.h"
#include "tests/testing/run.h"

namespace podman_testing {

Container::Container(Spec spec) : spec_(std::move(spec)) {
  static int serial = 0;
  name_ = "coreutils-" + std::to_string(getpid()) + "-" + std::to_string(serial++);
}

Container::~Container() {
  std::string output;
  if (client_ > 0) {
    Podman({"rm", "--force", "--time", "0", name_}, &output);
    if (WaitChild(client_, 30) < 0) {
      kill(client_, SIGKILL);
      WaitChild(client_, 10);
    }
  }
  if (created_) Podman({"rm", "--force", "--time", "0", "--ignore", name_}, &output);
  if (output_fd_ >= 0) close(output_fd_);
}

std::string Container::Run() {
  if (std::string why = PodmanUnavailable(); !why.empty()) return why;
  if (std::string failure = PodmanSetUpFailure(); !failure.empty()) return failure;
  std::vector<std::string> args = {"create", "--name", name_, "--pull", "never", "--timeout", "120"};
  args.insert(args.end(), spec_.options.begin(), spec_.options.end());
  args.push_back(spec_.image);
  args.insert(args.end(), spec_.command.begin(), spec_.command.end());
  std::string id;
  if (Podman(args, &id) != 0) return "podman create: " + id;
  Remember(id);
  created_ = true;
  // `podman run` in two steps, so that the container exists once this returns: attached, as run is.
  client_ = SpawnPodman({"start", "--attach", name_}, &output_fd_);
  return client_ > 0 ? "" : "cannot start podman";
}

bool Container::WaitFor(const std::string& text, double seconds) {
  return container_testing::ReadUntil(&output_fd_, &output_, text, seconds);
}

int Container::Stop(int seconds, std::string* messages) {
  return Podman({"stop", "--time", std::to_string(seconds), name_}, messages, seconds + 60);
}

bool Container::Kill(const std::string& signal) {
  std::string output;
  return Podman({"kill", "--signal", signal, name_}, &output) == 0;
}

int Container::Wait(double seconds) {
  if (status_ >= 0) return status_;
  if (client_ <= 0 || WaitChild(client_, seconds) < 0) return -1;
  client_ = -1;
  Output code;  // (A warning on stderr must not be read as the code.)
  if (Podman({"inspect", "--format", "{{.State.ExitCode}}", name_}, &code) != 0 || code.out.empty()) return -1;
  status_ = atoi(code.out.c_str());
  return status_;
}

}  // namespace podman_testing
