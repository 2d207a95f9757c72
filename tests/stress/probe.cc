// probe -- the command that tests/stress runs under timeout: it reports what it inherited, then behaves as asked.
//
// Every mode first writes one line "pid=PID fds=A,B,C" to stdout: its pid (so the test can check it was reaped)
// and its open descriptors (so the test can check timeout leaked none). Then:
//   probe run NANOS STATUS     sleep NANOS nanoseconds, then exit with STATUS
//   probe tree N               fork N children that wait forever, then wait forever
//   probe ignore-term N        ignore SIGTERM (children inherit that), fork N such children, wait forever
//   probe spawn-exit N STATUS  fork N children that exit at once (never reaped by us), then exit with STATUS
// Statically linked and free of libraries beyond libc, so thousands of runs stay cheap.
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

namespace {

void Report() {
  char line[512];
  int n = snprintf(line, sizeof line, "pid=%d fds=", static_cast<int>(getpid()));
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) {
    n += snprintf(line + n, sizeof line - n, "unreadable");
  } else {
    // Descriptors in increasing order, without the one listing them; there are few, so a bitmap suffices.
    bool open_fd[256] = {};
    bool more = false;
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      const int fd = atoi(entry->d_name);
      if (fd == dirfd(dir)) continue;
      if (fd >= 0 && fd < 256) open_fd[fd] = true;
      else more = true;
    }
    closedir(dir);
    const char* sep = "";
    for (int fd = 0; fd < 256; ++fd) {
      if (!open_fd[fd]) continue;
      n += snprintf(line + n, sizeof line - n, "%s%d", sep, fd);
      sep = ",";
    }
    if (more) n += snprintf(line + n, sizeof line - n, "%s...", sep);
  }
  n += snprintf(line + n, sizeof line - n, "\n");
  if (write(1, line, n) != n) _exit(99);
}

[[noreturn]] void WaitForever() {
  for (;;) pause();
}

void ForkChildren(int n, bool wait_forever) {
  for (int i = 0; i < n; ++i) {
    const pid_t pid = fork();
    if (pid < 0) _exit(98);
    if (pid == 0) {
      if (wait_forever) WaitForever();
      _exit(0);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 97;
  const char* mode = argv[1];
  const int n = argc > 2 ? atoi(argv[2]) : 0;
  if (strcmp(mode, "ignore-term") == 0) signal(SIGTERM, SIG_IGN);  // Before reporting: "reported" means "immune".
  Report();
  if (strcmp(mode, "run") == 0 && argc == 4) {
    const long long nanos = atoll(argv[2]);
    timespec ts = {static_cast<time_t>(nanos / 1000000000), static_cast<long>(nanos % 1000000000)};
    while (nanosleep(&ts, &ts) != 0) {
    }
    return atoi(argv[3]);
  }
  if (strcmp(mode, "tree") == 0 || strcmp(mode, "ignore-term") == 0) {
    ForkChildren(n, /*wait_forever=*/true);
    WaitForever();
  }
  if (strcmp(mode, "spawn-exit") == 0 && argc == 4) {
    ForkChildren(n, /*wait_forever=*/false);
    return atoi(argv[3]);
  }
  return 97;
}
