// tools/bench/rss.cc -- peak resident set size of a command, for tools/bench/bench.py.
//
// Usage: rss RUNS COMMAND [ARG...]
// Runs COMMAND RUNS times (stdout to /dev/null) and prints the median of wait4()'s ru_maxrss in KiB: the largest
// of the command and the children it reaped, as /usr/bin/time reports it. Static and small on purpose: until the
// exec, the child shares this process's memory (posix_spawn), and the kernel counts that memory's peak into the
// child's, so a spawner as large as Python (17 MB) would hide every command's own figure.
// Exit status: 0; 1 if a run could not be spawned; 2 on a usage error.
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <vector>

extern char** environ;

int main(int argc, char** argv) {
  int runs = argc >= 3 ? atoi(argv[1]) : 0;
  if (runs <= 0) {
    fprintf(stderr, "usage: rss RUNS COMMAND [ARG...]\n");
    return 2;
  }
  std::vector<long> kib;
  for (int i = 0; i < runs; ++i) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int err = posix_spawn(&pid, argv[2], &actions, nullptr, argv + 2, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (err != 0) {
      fprintf(stderr, "rss: %s: %s\n", argv[2], strerror(err));
      return 1;
    }
    int status;
    rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return perror("rss: wait4"), 1;
    kib.push_back(usage.ru_maxrss);
  }
  std::sort(kib.begin(), kib.end());
  printf("%ld\n", kib[kib.size() / 2]);
  return 0;
}
