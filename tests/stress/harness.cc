#include "tests/stress/harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace coreutils_stress {
namespace {

using coreutils_testing::Now;  // CLOCK_MONOTONIC in seconds (tests/testing/run.h).
using coreutils_testing::Options;
using coreutils_testing::Result;

// Orphans of a run come to us, not to init, so they can be found and counted.
void BecomeSubreaper() {
  static const bool done = [] {
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) ADD_FAILURE() << "PR_SET_CHILD_SUBREAPER: " << strerror(errno);
    return true;
  }();
  (void)done;
}

// "PID (comm) state S" for each live process whose parent is us.
std::vector<std::pair<pid_t, std::string>> OurChildren() {
  std::vector<std::pair<pid_t, std::string>> found;
  const pid_t self = getpid();
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return found;
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = atoi(entry->d_name);
    if (pid <= 0) continue;
    std::ifstream in("/proc/" + std::string(entry->d_name) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != self) continue;
    found.emplace_back(pid, stat.substr(0, close + 1) + " state " + state);
  }
  closedir(proc);
  return found;
}

// Reaps whatever the run left with us. Processes still dying get a grace period; the command turning up here
// means the utility exited without reaping it.
void CollectLeftovers(Outcome& run) {
  const pid_t command_pid = run.command_pid;
  // A process that was sent KILL or TERM dies long before this; a hung run has waited its limit already.
  const double give_up = Now() + (run.result.hung ? 0 : 5);
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG | __WALL);
    if (pid > 0) {
      if (pid == command_pid) run.command_unreaped = true;
      continue;
    }
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;  // ECHILD: nothing left.
    if (Now() > give_up) {
      for (const auto& [child, description] : OurChildren()) {
        run.survivors.push_back(description);
        kill(child, SIGKILL);
      }
      while (waitpid(-1, nullptr, __WALL) > 0 || errno == EINTR) {
      }
      break;
    }
    usleep(500);
  }
}

// Marks every descriptor above 2 close-on-exec, so the utility starts with 0, 1 and 2 only.
void OnlyStandardDescriptors() {
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  for (int fd = 3; fd < 1024; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
}

}  // namespace

int Iterations(int ci_default, int divisor) {
  int n = ci_default;
  if (const char* env = getenv("STRESS_ITERATIONS"); env != nullptr && atoi(env) > 0) n = atoi(env);
  return n / divisor > 0 ? n / divisor : 1;
}

std::string ProbePath() { return coreutils_testing::RunfilePath("tests/stress/probe"); }

Outcome RunAndCollect(const std::string& program, const std::vector<std::string>& argv, const Injection* injection,
                      double limit_seconds) {
  BecomeSubreaper();
  Outcome run;
  int pid_pipe[2];
  if (pipe2(pid_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << strerror(errno);
    return run;
  }
  Options options;
  options.limit_seconds = limit_seconds;  // Runs end in well under a second; the commands alone would take 30 s.
  const int write_end = pid_pipe[1];
  options.before_exec = [write_end] {
    const pid_t self = getpid();
    if (write(write_end, &self, sizeof self) != sizeof self) _exit(201);
    OnlyStandardDescriptors();
  };
  std::thread killer;
  if (injection != nullptr) {
    const int read_end = pid_pipe[0];
    const Injection inject = *injection;
    killer = std::thread([read_end, inject] {
      pid_t target = 0;
      if (read(read_end, &target, sizeof target) != sizeof target) return;  // The child never started.
      if (inject.delay_us > 0) usleep(inject.delay_us);
      // The target cannot have been reaped yet: it only ends because of this signal (or the runner's limit).
      kill(target, inject.signal);
    });
  }
  run.result = coreutils_testing::RunProgram(program, argv, options);
  close(pid_pipe[1]);  // Unblocks the killer if the child never wrote.
  if (killer.joinable()) killer.join();
  close(pid_pipe[0]);

  int pid = 0;
  char fds[256] = {};
  if (sscanf(run.result.out.c_str(), "pid=%d fds=%255[0-9,.a-z]", &pid, fds) == 2) {
    run.command_pid = pid;
    run.fds = fds;
  }
  CollectLeftovers(run);
  return run;
}

Outcome RunAndCollect(const std::vector<std::string>& argv, const Injection* injection) {
  return RunAndCollect(coreutils_testing::BinaryPath(), argv, injection);
}

std::string CommonProblems(const Outcome& run) {
  if (run.result.hung) return "hung (killed by the runner)";
  if (!run.survivors.empty()) {
    std::string all;
    for (const std::string& s : run.survivors) all += s + "; ";
    return "survived the run: " + all;
  }
  if (run.command_unreaped && run.result.signal != SIGKILL) return "the command was left unreaped (a zombie)";
  if (!run.result.out.empty()) {
    if (run.command_pid == 0) return "unexpected stdout";
    const std::string line = "pid=" + std::to_string(run.command_pid) + " fds=" + run.fds + "\n";
    if (run.result.out != line) return "unexpected stdout";
    if (run.fds != "0,1,2") return "the command inherited descriptors " + run.fds + " (want 0,1,2)";
  }
  if (!run.result.err.empty()) return "unexpected stderr";
  return "";
}

void Tally::Add(const Outcome& run, const std::string& problem) {
  ++runs_;
  ++statuses_[run.result.status];
  if (run.result.seconds > slowest_) slowest_ = run.result.seconds;
  if (problem.empty()) return;
  ++failed_;
  if (examples_.size() < 5) {
    std::ostringstream s;
    s << "run " << runs_ << ": " << problem << " [status " << run.result.status << ", signal " << run.result.signal
      << ", stdout '" << run.result.out << "', stderr '" << run.result.err << "']";
    examples_.push_back(s.str());
  }
}

void Tally::AddKnown(const Outcome& run, const std::string& fault) {
  ++runs_;
  ++statuses_[run.result.status];
  ++known_[fault];
}

void Tally::Finish() {
  std::ostringstream s;
  s << "STRESS " << name_ << ": " << runs_ << " runs, statuses {";
  const char* sep = "";
  for (const auto& [status, count] : statuses_) {
    s << sep << status << ": " << count;
    sep = ", ";
  }
  s << "}, " << failed_ << " failed, slowest " << slowest_ << " s";
  for (const auto& [fault, count] : known_) s << ", known fault '" << fault << "' " << count << " times";
  printf("%s\n", s.str().c_str());
  fflush(stdout);
  std::string examples;
  for (const std::string& e : examples_) examples += "\n  " + e;
  EXPECT_EQ(failed_, 0) << name_ << examples;
}

}  // namespace coreutils_stress
