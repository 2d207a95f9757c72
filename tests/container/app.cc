// app -- the application that tests/container runs under an init (ours, tini, dumb-init) inside a container.
//
// Every line it writes is one write(2) to stdout, so lines from the app and its children never interleave.
//   app wait-term           count TERMs; "ready"; 300 ms after the first, "TERM N" and exit 42
//   app storm N             a child forks N processes and exits at once, so they die as orphans of PID 1; then
//                           "zombies K": the zombies left in the container (/proc) once none is left or 5 s passed
//   app raise SIG           die of signal number SIG
//   app daemon              a child that setsid()s (a daemon); "ready"; on TERM each writes "app TERM" or
//                           "daemon TERM" and dies of it
//   app immune              ignore TERM; "ready"; wait forever
//   app tty                 "ready"; on INT: 300 ms later "INT N" (INTs counted) and die of INT; once continued
//                           after a stop (SIGCONT): "CONT" and exit 0
//   app kill-group          count TERMs; "ready"; kill(0, TERM) (a shell's `kill 0`); 300 ms later "TERM N", exit 0
//   app exit N              exit N
//   app signals             handle HUP INT QUIT USR1 USR2 WINCH ALRM; "ready"; 300 ms after the first, "NAME N" (the
//                           first one's name, how many of it came) and ends as that signal would have ended it
//                           unhandled: dies of it (QUIT without a core file), or exits 0 for WINCH
//   app                     with no argument: the mode APP_MODE names (tests/podman's images for the pod spec, whose
//                           command is the bare /app)
// Static and never instrumented (BUILD), so it runs in the container whatever the configuration.
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace {

volatile sig_atomic_t g_count = 0;
volatile sig_atomic_t g_continued = 0;
volatile sig_atomic_t g_first = 0;
const char* g_who = "app";

void Line(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Line(const char* format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n > 0 && write(1, buf, n) != n) _exit(99);
}

void SleepMs(long ms) {
  timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

void Count(int) { g_count = g_count + 1; }
void Continued(int) { g_continued = 1; }

void Handle(int sig, void (*handler)(int)) {
  struct sigaction sa = {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, nullptr);
}

[[noreturn]] void DieOf(int sig) {
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  _exit(100);  // Not reached unless the signal is blocked by someone else's choice.
}

void SayTermAndDie(int) {
  char line[32];
  const int n = snprintf(line, sizeof line, "%s TERM\n", g_who);
  if (write(1, line, n) != n) _exit(99);
  DieOf(SIGTERM);
}

// Waits for the first of `count` to be non-zero, then lets duplicates arrive.
void AwaitThenSettle() {
  while (g_count == 0) pause();
  SleepMs(300);
}

int Zombies() {
  int zombies = 0;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return -1;
  while (dirent* entry = readdir(proc)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
    char path[300], stat[512];
    snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
    FILE* f = fopen(path, "re");
    if (f == nullptr) continue;
    const size_t got = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[got] = '\0';
    const char* close_paren = strrchr(stat, ')');  // The state follows the command name, which may hold spaces.
    if (close_paren != nullptr && close_paren[1] == ' ' && close_paren[2] == 'Z') ++zombies;
  }
  closedir(proc);
  return zombies;
}

int Storm(int n) {
  const pid_t child = fork();
  if (child < 0) return 98;
  if (child == 0) {
    for (int i = 0; i < n; ++i) {
      const pid_t orphan = fork();
      if (orphan < 0) _exit(98);
      if (orphan == 0) _exit(0);
    }
    _exit(0);  // Its children, dead or not, now belong to PID 1.
  }
  int status;
  waitpid(child, &status, 0);
  int zombies = Zombies();
  for (int waited = 0; zombies != 0 && waited < 5000; waited += 10) {
    SleepMs(10);
    zombies = Zombies();
  }
  Line("zombies %d\n", zombies);
  return 0;
}

int Daemon() {
  int ready[2];
  if (pipe(ready) != 0) return 98;
  const pid_t daemon = fork();
  if (daemon < 0) return 98;
  if (daemon == 0) {
    g_who = "daemon";
    setsid();
    Handle(SIGTERM, SayTermAndDie);
    close(ready[1]);
    for (;;) pause();
  }
  Handle(SIGTERM, SayTermAndDie);
  close(ready[1]);
  char c;
  while (read(ready[0], &c, 1) < 0) {
  }
  Line("ready\n");
  for (;;) pause();
}

int Tty() {
  Handle(SIGINT, Count);
  Handle(SIGCONT, Continued);
  Line("ready\n");
  while (g_count == 0 && g_continued == 0) pause();
  if (g_continued) {
    Line("CONT\n");
    return 0;
  }
  SleepMs(300);
  Line("INT %d\n", static_cast<int>(g_count));
  DieOf(SIGINT);
}

void CountFirst(int sig) {
  if (g_first == 0) g_first = sig;
  if (sig == g_first) g_count = g_count + 1;
}

int Signals() {
  static const struct {
    int sig;
    const char* name;
  } kSignals[] = {{SIGHUP, "HUP"},   {SIGINT, "INT"},     {SIGQUIT, "QUIT"}, {SIGUSR1, "USR1"},
                  {SIGUSR2, "USR2"}, {SIGWINCH, "WINCH"}, {SIGALRM, "ALRM"}};
  for (const auto& s : kSignals) Handle(s.sig, CountFirst);
  Line("ready\n");
  AwaitThenSettle();
  const char* name = "?";
  for (const auto& s : kSignals) name = s.sig == g_first ? s.name : name;
  Line("%s %d\n", name, static_cast<int>(g_count));
  const rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // QUIT's default action dumps core: not into the host's core handler.
  signal(g_first, SIG_DFL);
  raise(g_first);
  return 0;  // WINCH: ignored by default.
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc >= 2 ? argv[1] : getenv("APP_MODE");
  if (mode == nullptr) return 97;
  if (strcmp(mode, "wait-term") == 0) {
    Handle(SIGTERM, Count);
    Line("ready\n");
    AwaitThenSettle();
    Line("TERM %d\n", static_cast<int>(g_count));
    return 42;
  }
  if (strcmp(mode, "storm") == 0 && argc == 3) return Storm(atoi(argv[2]));
  if (strcmp(mode, "raise") == 0 && argc == 3) DieOf(atoi(argv[2]));
  if (strcmp(mode, "daemon") == 0) return Daemon();
  if (strcmp(mode, "immune") == 0) {
    signal(SIGTERM, SIG_IGN);
    Line("ready\n");
    for (;;) pause();
  }
  if (strcmp(mode, "tty") == 0) return Tty();
  if (strcmp(mode, "kill-group") == 0) {
    Handle(SIGTERM, Count);
    Line("ready\n");
    kill(0, SIGTERM);
    AwaitThenSettle();
    Line("TERM %d\n", static_cast<int>(g_count));
    return 0;
  }
  if (strcmp(mode, "exit") == 0 && argc == 3) return atoi(argv[2]);
  if (strcmp(mode, "signals") == 0) return Signals();
  return 97;
}
