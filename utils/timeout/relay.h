// utils/timeout/relay.h -- Relay: -i's pipes, and one ppoll for signals, the deadline, output and cgroup.events.
//
// The wait of -i and of the cgroup backend of --tree: one ppoll per wake over a signalfd (the signals stay blocked),
// a timerfd for the deadline (uucore::DeadlineTimer: ppoll's own timeout is 0.1% late) and descriptors. -i: the
// command's stdout and stderr are pipes that timeout copies to its own, so every write is seen. Where timeout's
// output is a pipe or /dev/null, splice() moves the bytes inside the kernel and timeout holds none; else (a file,
// a terminal, a socket) each stream holds at most one chunk in flight. Either way a pipe is read only once what
// came before is out, so a stalled reader of timeout's output stalls the command as it would without timeout (and
// counts as inactivity). --tree with a cgroup: its cgroup.events, which the kernel flags (POLLPRI) when the group
// empties.
//
// Owns: its signalfd, its timerfd, the pipes between the command's fds 1 and 2 and timeout's, and what is in flight
// between them. Must not touch: the signal mask (the signals it reads stay blocked; Run() blocks them), the command
// and its tree (it only reports events; the supervisor decides), or timeout's own fds 1 and 2 beyond writing the
// command's output to them (and putting them back after the spawn).
#ifndef UTILS_TIMEOUT_RELAY_H_
#define UTILS_TIMEOUT_RELAY_H_

#include <limits.h>
#include <signal.h>
#include <sys/types.h>

#include <cstddef>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace timeout {

class Relay {
 public:
  // A wake of Wait(): a signal (with its sender), the deadline, output moved, or the watched file changed.
  struct Event {
    int sig = 0;  // > 0: this signal; 0: the deadline passed; kActivity: output moved (restart the timer);
                  // kWatched: the watched descriptor reported POLLPRI.
    int code = 0;
    pid_t pid = 0;
  };
  static constexpr int kActivity = -1;
  static constexpr int kWatched = -2;

  ~Relay();

  // Before Spawn(): a signalfd for `signals` (which must stay blocked) and, with `pipes` (-i), pipes for those of
  // fds 1 and 2 that were open when timeout started (`closed`: bit i for fd i, from
  // uucore::HoldClosedStandardDescriptors()), one pipe for both when they share an open file description, as with
  // 2>&1, so that their order is kept.
  absl::Status Open(const sigset_t& signals, bool pipes, unsigned closed);

  // Spawns with the pipes' write ends as the command's fds 1 and 2, restoring timeout's own afterwards.
  absl::StatusOr<pid_t> Spawn(char* const argv[], const uucore::SpawnOptions& spawn);

  // Also wake when `fd` reports POLLPRI (a cgroup.events file: the caller reads it, which re-arms it); -1: none.
  void Watch(int fd) { watched_ = fd; }

  // Waits, in one ppoll per wake, for a signal (read from the signalfd: they stay blocked), the deadline (a
  // timerfd at its absolute time), the pipes or the watched descriptor; moves output as it comes. EINTR (a
  // stop/continue) is absorbed: the timer still aims at the same instant.
  absl::StatusOr<Event> Wait(uucore::Deadline deadline);

  // Once the command has exited: copies what it left in the pipes, without waiting for EOF (a descendant may hold
  // a write end for ever; timeout returns when the command does, and later output from descendants is dropped).
  void Drain();

 private:
  struct Stream {
    int from = -1;        // Our read end of the command's pipe.
    int child_end = -1;   // The write end, until the command has it.
    int to = -1;          // Where the output goes: timeout's own fd 1 or 2.
    int also = -1;        // 2 when the command's fd 2 is this same pipe (2>&1).
    bool splice = false;  // Moved by splice(), nothing held here; else copied through buf.
    bool full = false;    // splice: bytes wait in the command's pipe for room in our output.
    // One read's worth: PIPE_BUF, which a pipe, terminal or socket that polls writable takes without blocking; all of
    // buf for a file, which has no reader to wait for.
    size_t chunk = PIPE_BUF;
    char buf[1 << 16];  // Touched only as far as chunk: Relay is on the heap, its pages come as they are written.
    size_t len = 0, off = 0;
  };

  // As much as a pipe can hold (F_SETPIPE_SZ's default limit); a splice moves what there is, up to this.
  static constexpr size_t kSpliceMax = 1 << 20;

  // How the command's bytes reach our `fd`: splice() to a pipe (SPLICE_F_NONBLOCK holds for both ends) or
  // /dev/null. Copied to the rest: a regular file in whole-buffer writes (no reader to wait for; and write() takes
  // the file position under the kernel's lock, splice() does not, so writers sharing the file, as `make -j >log`
  // makes them, would overwrite each other), a terminal or a socket in PIPE_BUF ones.
  static void ChooseHow(int fd, Stream& s);

  // Once the command has exited (Drain()): our output, full (EAGAIN: non-blocking, or splice), is waited for, as a
  // blocking write would wait.
  static void AwaitRoom(int fd);

  // Bytes waiting in the pipe `fd` (so that splice's EAGAIN is our output's doing, not an empty pipe's).
  static bool Pending(int fd);

  static void CloseFrom(Stream& s);

  // One step for a ready stream: splice what the pipe holds, or write the chunk in flight, or read the next. True if
  // bytes moved.
  static bool Move(Stream& s);

  static bool WriteAll(Stream& s);

  Stream streams_[2];
  int sigfd_ = -1;
  uucore::DeadlineTimer timer_;
  int watched_ = -1;
  bool pending_activity_ = false;
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_RELAY_H_
