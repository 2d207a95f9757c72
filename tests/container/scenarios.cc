#include "tests/container/scenarios.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tests/testing/ptrace.h"
#include "uucore/process.h"

extern char** environ;

namespace container_testing {

using coreutils_testing::RunfilePath;

namespace {

// The init's argv for `command`; `ours_options` go to our timeout (before its DURATION), peers have no equivalent.
std::vector<std::string> Args(const Init& init, const std::vector<std::string>& command,
                              const std::vector<std::string>& ours_options = {}) {
  std::vector<std::string> args = init.prefix;
  if (init.name == "ours") args.insert(args.begin() + 2, ours_options.begin(), ours_options.end());
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

// `runc run`, then the container's output until the app's `ready` appears (10 s at most). "" or what went wrong.
std::string RunUntilReady(Container* container, const std::string& ready) {
  if (std::string error = container->Run(); !error.empty()) return error;
  if (!container->WaitFor(ready, 10)) return "no \"ready\" from the app: " + container->output();
  return "";
}

// Runs the container up to the app's "ready", then `signal` through runc; PID 1's status within `seconds`.
Outcome ReadyThenKill(const std::vector<std::string>& args, const std::string& signal, double seconds) {
  Outcome outcome;
  Container container({args});
  outcome.error = RunUntilReady(&container, "ready\n");
  if (!outcome.error.empty()) return outcome;
  const double start = Now();
  if (!container.Kill(signal)) outcome.error = "runc kill " + signal + " failed";
  outcome.statuses.push_back(container.Wait(seconds));
  outcome.seconds = Now() - start;
  container.Drain(0.5);
  outcome.output = container.output();
  return outcome;
}

// The terminal's output without its echo of Ctrl-C and Ctrl-Z ("^C", "^Z"), so the app's lines stand alone.
std::string WithoutEcho(std::string s) {
  for (const char* echo : {"^C", "^Z"}) {
    for (size_t at; (at = s.find(echo)) != std::string::npos;) s.erase(at, 2);
  }
  return s;
}

std::string Trimmed(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '\r') continue;
    out += c == '\n' ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The app (PID 1's child) once it has said "ready"; 0, with outcome->error set, if it never did or is not there.
pid_t ReadyApp(Container* container, Outcome* outcome) {
  outcome->error = RunUntilReady(container, "ready");
  if (!outcome->error.empty()) return 0;
  const pid_t app = container->Child();
  if (app <= 0) outcome->error = "the app is not PID 1's child";
  return app > 0 ? app : 0;
}

// Whether the app stops within 3 s: outcome->stopped, and the note for the table.
void AwaitStopped(pid_t app, Outcome* outcome) {
  for (const double deadline = Now() + 3; !outcome->stopped && Now() < deadline; usleep(5000)) {
    outcome->stopped = ProcessState(app) == 'T';
  }
  outcome->note = outcome->stopped ? "stopped" : "never stopped";
}

}  // namespace

Outcome StopSignal(const Init& init) { return ReadyThenKill(Args(init, {"/app", "wait-term"}), "TERM", 10); }

Outcome OrphanStorm(const Init& init, int orphans) {
  Outcome outcome;
  Container container({Args(init, {"/app", "storm", std::to_string(orphans)})});
  outcome.error = container.Run();
  if (!outcome.error.empty()) return outcome;
  outcome.statuses.push_back(container.Wait(30));
  container.Drain(0.5);
  outcome.output = container.output();
  return outcome;
}

Outcome ExitCodes(const Init& init) {
  Outcome outcome;
  const std::vector<std::vector<std::string>> commands = {
      {"/bin/true"}, {"/bin/false"}, {"/noexec"}, {"/missing"}, {"/app", "raise", std::to_string(SIGUSR1)}};
  for (const std::vector<std::string>& command : commands) {
    Container container({Args(init, command)});
    if (std::string error = container.Run(); !error.empty()) {
      outcome.error = error;
      return outcome;
    }
    outcome.statuses.push_back(container.Wait(10));
  }
  return outcome;
}

Outcome SetsidDaemon(const Init& init) {
  return ReadyThenKill(Args(init, {"/app", "daemon"}, {"--tree"}), "TERM", 10);
}

Outcome ImmuneToTerm(const Init& init) {
  Outcome outcome = ReadyThenKill(Args(init, {"/app", "immune"}, {"-k", "0.5"}), "TERM", 5);
  char took[32];
  snprintf(took, sizeof took, "after %.2f s", outcome.seconds);
  outcome.note = outcome.statuses == std::vector<int>{-1} ? "given up after 5 s" : took;
  return outcome;
}

Outcome CtrlC(const Init& init) {
  Outcome outcome;
  Container container({Args(init, {"/app", "tty"}), /*terminal=*/true});
  outcome.error = RunUntilReady(&container, "ready");
  if (!outcome.error.empty()) return outcome;
  container.Type("\x03");
  outcome.statuses.push_back(container.Wait(10));
  container.Drain(0.5);
  outcome.output = WithoutEcho(container.output());
  return outcome;
}

Outcome CtrlZ(const Init& init) {
  Outcome outcome;
  Container container({Args(init, {"/app", "tty"}), /*terminal=*/true});
  const pid_t app = ReadyApp(&container, &outcome);
  if (app == 0) return outcome;
  container.Type("\x1a");
  AwaitStopped(app, &outcome);
  kill(app, SIGCONT);  // What `fg` sends, straight to the app.
  container.WaitFor("CONT", 5);
  outcome.statuses.push_back(container.Wait(5));
  container.Drain(0.5);
  outcome.output = WithoutEcho(container.output());
  return outcome;
}

Outcome StopAndContinue(const Init& init) {
  Outcome outcome;
  Container container({Args(init, {"/app", "tty"})});
  const pid_t app = ReadyApp(&container, &outcome);
  if (app == 0) return outcome;
  if (!container.Kill("TSTP")) outcome.error = "runc kill TSTP failed";
  AwaitStopped(app, &outcome);
  if (!container.Kill("CONT")) outcome.error = "runc kill CONT failed";
  container.WaitFor("CONT", 2);
  const int status = container.Wait(2);
  if (status < 0) kill(app, SIGCONT);  // Not passed on: as a shell's `fg`, straight to the app, so that it ends.
  outcome.statuses.push_back(status < 0 ? container.Wait(5) : status);
  if (status < 0) outcome.note += ", CONT not passed on";
  container.Drain(0.5);
  outcome.output = container.output();
  return outcome;
}

Outcome KillOwnGroup(const Init& init) {
  Outcome outcome;
  Container container({Args(init, {"/app", "kill-group"})});
  outcome.error = container.Run();
  if (!outcome.error.empty()) return outcome;
  outcome.statuses.push_back(container.Wait(10));
  container.Drain(0.5);
  outcome.output = container.output();
  return outcome;
}

std::string Summary(const Outcome& outcome) {
  if (!outcome.error.empty()) return "could not run: " + Trimmed(outcome.error);
  std::string statuses;
  for (int status : outcome.statuses) {
    statuses += (statuses.empty() ? "" : " ") + (status < 0 ? std::string("running") : std::to_string(status));
  }
  return statuses + (outcome.note.empty() ? "" : "; " + outcome.note) +
         (outcome.output.empty() ? "" : "; " + Trimmed(outcome.output));
}

std::string MarkdownCell(std::string text) {
  for (size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) text.replace(at, 1, "\\|");
  return text;
}

void PrintTable(const std::vector<std::string>& rows, const std::vector<std::string>& columns,
                const std::function<Outcome(size_t row, size_t column)>& run) {
  printf("| scenario |");
  for (const std::string& column : columns) printf(" %s |", column.c_str());
  printf("\n|---|");
  for (size_t c = 0; c < columns.size(); ++c) printf("---|");
  printf("\n");
  for (size_t r = 0; r < rows.size(); ++r) {
    printf("| %s |", rows[r].c_str());
    for (size_t c = 0; c < columns.size(); ++c) {
      printf(" %s |", MarkdownCell(Summary(run(r, c))).c_str());
      fflush(stdout);
    }
    printf("\n");
  }
}

Init Floor() { return {"floor", {"/floor"}, {RunfilePath("tests/container/floor")}}; }

namespace {

// Waits (10 s at most) for the next stop of a traced PID 1 that is ours to handle: the exec, or a system call stop.
// Signals it gets meanwhile (runc's Go init has its own) are delivered with the same request that resumed it
// (PTRACE_CONT, or PTRACE_SYSCALL so that system call stops keep coming). Returns false if it exited or hung.
bool NextStop(pid_t pid, enum __ptrace_request resume) {
  const double deadline = Now() + 10;
  for (int wstatus; coreutils_testing::WaitForStateChange(pid, deadline, &wstatus);) {
    if (!WIFSTOPPED(wstatus)) return false;
    const int sig = WSTOPSIG(wstatus);
    const int event = wstatus >> 16;
    if (sig == (SIGTRAP | 0x80) || event == PTRACE_EVENT_EXEC || (sig == SIGTRAP && event == 0)) return true;
    ptrace(resume, pid, nullptr, reinterpret_cast<void*>(static_cast<long>(event == 0 ? sig : 0)));
  }
  return false;
}

// kFirstSyscall, once the tracee has stopped at its exec: run it to the return of its first system call, queue TERM,
// detach. "" or what went wrong.
std::string TermAfterFirstSyscall(pid_t pid) {
  if (ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0) {
    return std::string("PTRACE_SETOPTIONS: ") + strerror(errno);
  }
  for (const char* stop : {"entry", "exit"}) {
    if (ptrace(PTRACE_SYSCALL, pid, nullptr, nullptr) != 0 || !NextStop(pid, PTRACE_SYSCALL)) {
      return std::string("no stop at the first system call's ") + stop;
    }
  }
  kill(pid, SIGTERM);
  if (ptrace(PTRACE_DETACH, pid, nullptr, nullptr) != 0) return std::string("PTRACE_DETACH: ") + strerror(errno);
  return "";
}

}  // namespace

Window StartupWindow(const Init& init, const WindowOptions& options) {
  const Runtime runtime = options.runtime;
  const Trigger trigger = options.trigger;
  Window window;
  const double start = Now();
  std::vector<std::string> args = runtime == Runtime::kRunc ? init.prefix : init.host_prefix;
  if (runtime == Runtime::kRunc) {
    args.insert(args.end(), {"/bin/sleep", "1000"});
  } else {
    args.insert(args.end(), {Ours().host_prefix[0], "sleep", "1000"});
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  char* envp[] = {const_cast<char*>("PATH=/bin:/usr/bin"), nullptr};
  const int dev_null = open("/dev/null", O_RDWR | O_CLOEXEC);
  char before[32] = {};
  const int self = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
  (void)!read(self, before, sizeof before - 1);
  close(self);
  for (int trial = 0; trial < options.trials && window.error.empty() && window.lost < options.stop_after_lost;
       ++trial) {
    std::optional<Container> container;  // kRunc only.
    pid_t pid = 0;
    if (runtime == Runtime::kRunc) {
      container.emplace(Container::Spec{args});
      window.error = container->Create();
      if (!window.error.empty()) break;
      pid = container->pid();
      if (trigger != Trigger::kComm &&
          ptrace(PTRACE_SEIZE, pid, nullptr, PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0) {
        window.error = std::string("PTRACE_SEIZE: ") + strerror(errno);
        break;
      }
    } else {
      pid = static_cast<pid_t>(syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
      if (pid == 0) {  // PID 1 of the new namespace, as `unshare --pid --fork` leaves it: all defaults.
        for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int fd = 0; fd < 3; ++fd) dup2(dev_null, fd);
        if (trigger != Trigger::kComm) ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
        execve(argv[0], argv.data(), envp);
        _exit(127);
      }
      if (pid < 0) {
        window.error = std::string("clone(CLONE_NEWPID): ") + strerror(errno);
        break;
      }
    }
    if (trigger == Trigger::kComm) {
      // comm is the task's: a descriptor opened now reads it after the exec too, one pread per look.
      const int comm = open(("/proc/" + std::to_string(pid) + "/comm").c_str(), O_RDONLY | O_CLOEXEC);
      if (runtime == Runtime::kRunc) {
        (void)!pread(comm, before, sizeof before - 1, 0);  // "runc:[2:INIT]"
        container->StartAsync();
      }
      bool exec_seen = false;
      char now[32] = {};
      for (const double deadline = Now() + 10; !exec_seen && Now() < deadline;) {
        const ssize_t got = pread(comm, now, sizeof now - 1, 0);
        if (got < 0) break;
        now[got] = '\0';
        exec_seen = strcmp(now, before) != 0;
      }
      close(comm);
      if (exec_seen) {
        kill(pid, SIGTERM);
      } else {
        window.error = "PID 1 never exec'd (comm stayed " + std::string(before) + ")";
      }
    } else {
      if (runtime == Runtime::kRunc) container->StartAsync();
      if (!NextStop(pid, PTRACE_CONT)) {
        window.error = "PID 1 never stopped at its exec";
      } else if (trigger == Trigger::kSpawn) {
        window.error = coreutils_testing::SignalAtSpawn(pid, options.signal);
      } else {
        window.error = TermAfterFirstSyscall(pid);
      }
    }
    if (!window.error.empty()) {
      kill(pid, SIGKILL);
      if (runtime == Runtime::kUnshare) waitpid(pid, nullptr, 0);
      break;
    }
    int status = -1;
    if (runtime == Runtime::kRunc) {
      status = container->Wait(options.give_up_seconds);
    } else {
      const int pidfd = uucore::PidfdOpen(pid);
      pollfd pfd = {pidfd, POLLIN, 0};
      const bool exited = pidfd >= 0 && poll(&pfd, 1, static_cast<int>(options.give_up_seconds * 1000)) == 1;
      if (pidfd >= 0) close(pidfd);
      if (!exited) kill(pid, SIGKILL);
      int wstatus;
      waitpid(pid, &wstatus, 0);
      if (exited) status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    }
    ++window.trials;
    if (status < 0) {
      ++window.lost;
    } else {
      ++window.statuses[status];
    }
  }
  close(dev_null);
  window.seconds = Now() - start;
  return window;
}

}  // namespace container_testing
