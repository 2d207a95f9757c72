// tests/podman/container.h -- one `podman run` in the foreground, as a user types it, read as it writes.
//
// Run in its two steps, `podman create` then `podman start --attach` (stdout and stderr of the container both into
// one pipe), so that the container exists as soon as Run() returns; with --timeout 120, so that conmon ends a
// container whose test died before removing it. The exit status is the container's, as podman
// records it (`podman inspect`), never the client's (podman's own failures are 125-127 too).
#ifndef TESTS_PODMAN_CONTAINER_H_
#define TESTS_PODMAN_CONTAINER_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/podman/engine.h"

namespace podman_testing {

class Container {
 public:
  struct Spec {
    std::vector<std::string> options;  // `podman run` options before the image: --init, --entrypoint, ...
    std::vector<std::string> command;  // after the image
    std::string image = kTestImage;
  };
  explicit Container(Spec spec);
  // Removes the container (`podman rm --force --time 0`) and reaps the client.
  ~Container();
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  // Creates the container and starts the attached client. "" or what went wrong.
  std::string Run();
  // Reads the container's output until `text` has appeared or `seconds` passed; true if it appeared.
  bool WaitFor(const std::string& text, double seconds);
  // Reads it until EOF (the client has exited) or `seconds` passed.
  void Drain(double seconds) { WaitFor(std::string(1, '\0'), seconds); }
  const std::string& output() const { return output_; }

  // `podman stop --time SECONDS`: podman's status; what it printed in *messages (a warning where it had to KILL).
  int Stop(int seconds, std::string* messages);
  // `podman kill --signal SIGNAL`: true if podman succeeded.
  bool Kill(const std::string& signal);
  // Once the client has exited (within `seconds`): the container's exit code (128 + N if PID 1 died of N), else -1.
  int Wait(double seconds);

  const std::string& name() const { return name_; }

 private:
  Spec spec_;
  std::string name_;
  bool created_ = false;
  pid_t client_ = -1;
  int output_fd_ = -1;
  std::string output_;
  int status_ = -1;
};

}  // namespace podman_testing

#endif  // TESTS_PODMAN_CONTAINER_H_
