// kill -- send a signal to processes, or list signals. Follows GNU kill(1) 9.11, as GNU 9.10's kill behaves, with
// util-linux 2.42's options and a --wait of ours; tests/kill/ pins every behaviour (kill_test.cc GNU's,
// kill_util_linux_test.cc util-linux's, kill_wait_test.cc --wait's). Neither GNU's nor util-linux's kill is
// installed here (/usr/bin/kill is procps's), so the tests state their output themselves.
//
// Usage: kill [-s SIGNAL | -SIGNAL] [-q VALUE] [-r] [--verbose] [--timeout MS SIGNAL]... [--wait[=DURATION]] PID...
//    or: kill -l|-t [SIGNAL|0xMASK]...    or: kill -d PID               (--help and kill(1): kill.help)
// Sending: SIGNAL defaults to TERM; 0 only checks that each PID could be signalled; a number without a name (32, 33
// under glibc) is sent as it is. PID 0 is our process group, -1 every process we may signal, -N process group N;
// PID:PIDFD_INODE (Linux 6.9) the process PID only if its pidfd has that inode (else nothing is sent: an error).
// Options and PIDs may come in any order (GNU's getopt permutes); `--` ends the options. -SIGNAL must be a whole
// argument ("-lKILL": "invalid option -- K"). -N with a digit is a signal only as the first argument: anywhere else
// it is a PID (`kill -s TERM -1`, `kill -9 -1` need no `--`) and options end there, as in GNU, which then ignores
// the PIDs before it (`kill 5 -9` signals only process group 9, with TERM). -KILL, -RTMIN+1 work anywhere.
// -n SIGNAL (bash) and -L (= -t) are accepted silently, as GNU does; so are GNU's abbreviations --s, --t and --v,
// which util-linux's option names would otherwise make ambiguous.
// util-linux's: -q VALUE sends with sigqueue (SI_QUEUE, VALUE); -r signals only a process that catches the signal;
// --verbose says "sending signal 15 to pid 42"; --timeout MS SIGNAL (repeatable) sends SIGNAL to each target still
// running MS after the previous signal. --wait[=DURATION] returns once every target has exited (or DURATION has
// passed), after the last follow-up signal. The last two wait on pidfds in one ppoll: no polling, no pid reuse; every
// target's pidfd is opened before the first signal, under the hard limit of open files (beyond it nothing is sent). A
// group (0, -1, -N) with --timeout, --wait or -r is a usage error: a group has no pidfd and no one handler.
// Every PID is tried; a bad one is reported ("kill: 'x': invalid process id", "kill: '99999': No such process").
// Listing: -l with no SIGNAL prints EXIT (0) and every named signal, one per line; -l SIGNAL prints the number for
// a name and the name for a number, any number up to SIGRTMAX ("32" for 32, which has no name), or a shell exit
// status (143: TERM; 160: 32); -l 0xMASK (or --list=0xMASK) the names of the signals set in a mask as /proc writes
// it. -t prints "NUM NAME DESCRIPTION" rows (SIG32 for 32; descriptions as glibc's strsignal gives them, in the
// user's language). A bad operand is reported ("kill: 'FOO': invalid signal") and the others are still listed.
// -d PID prints PID's pending, blocked, ignored and caught signals as util-linux does, its names too ("Caught: HUP
// INT IO RT1 ", where -l says POLL and RTMIN+1).
// Messages are GNU's msgids through uucore::Format, so GNU's catalogs translate them; getopt's are glibc's own.
// Exit status: 0 if every PID was signalled / every SIGNAL listed; 1 otherwise (also when -r signalled none), on a
// usage error (bad -s SIGNAL, no PID, -l with -s, two -l/-t, two signals: message and Try line) and on a write
// error; 124 if --wait's DURATION passed with a target still running.
#include "utils/kill/kill.h"

#include "absl/status/statusor.h"
#include "utils/kill/listing.h"
#include "utils/kill/options.h"
#include "utils/kill/sending.h"
#include "utils/kill/waiting.h"
#include "uucore/cli.h"

namespace kill_utility {
namespace {

int Run(const Options& options) {
  switch (options.mode) {
    case Mode::kList:
      return uucore::Finish(ListSignals(options));
    case Mode::kShowState:
      return uucore::Finish(ShowProcessState(options.state_arg, options.state_pid));
    case Mode::kSend:
      break;
  }
  Following following;  // Stays empty (no allocation, no descriptor) without --timeout and --wait.
  const int status = SendSignals(options, &following);
  if (!options.follows_targets()) return status;
  return FollowAndWait(options, &following, status);
}

}  // namespace
}  // namespace kill_utility

int KillMain(int argc, char* argv[]) {
  absl::StatusOr<kill_utility::Options> options = kill_utility::ParseArgs(argc, argv);
  if (!options.ok()) return uucore::UsageError(options.status());
  if (options->finished_status >= 0) return options->finished_status;
  return kill_utility::Run(*options);
}
