// timeout beyond GNU: PID 1 duties (reaping orphans, passing on signals), --tree, -i/--inactivity. One behaviour per
// case, exact status/stdout/stderr. Survivors are caught by the runner itself: it waits until stdout closes, so a
// descendant left running with `sleep 10` holds the run past its 5 s bound.
#include <ctype.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <thread>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

struct Expect {
  std::string name;
  std::vector<std::string> argv;
  int status;
  std::string out, err;
  double max_seconds = 5;  // Generous for a loaded machine, far below the 10 s a survivor would hold stdout.
  double min_seconds = 0;
};

void Check(const Expect& c, const Result& r) {
  EXPECT_FALSE(r.hung) << c.name;
  EXPECT_EQ(r.status, c.status) << c.name;
  EXPECT_EQ(r.out, c.out) << c.name;
  EXPECT_EQ(r.err, c.err) << c.name;
  EXPECT_LT(r.seconds, c.max_seconds) << c.name;
  EXPECT_GE(r.seconds, c.min_seconds) << c.name;
}

void Check(const Expect& c, const Options& options = {}) { Check(c, Invoke(c.argv, options)); }

// --- PID 1 -------------------------------------------------------------------------------------------------------

class AsPid1Test : public testing::Test {
 protected:
  void SetUp() override {
    if (RunProgram("/usr/bin/unshare", {"unshare", "--pid", "--fork", "--mount-proc", "true"}).status != 0) {
      GTEST_SKIP() << "unshare --pid needs privileges here";
    }
    dir_ = MakeTempDir();
    ASSERT_EQ(symlink(BinaryPath().c_str(), (dir_ + "/timeout").c_str()), 0);
  }
  void CheckAsPid1(const Expect& c) {
    std::vector<std::string> argv = {"unshare", "--pid", "--fork", "--mount-proc", dir_ + "/timeout"};
    argv.insert(argv.end(), c.argv.begin() + 1, c.argv.end());
    Check(c, RunProgram("/usr/bin/unshare", argv));  // Messages name the program, not the link's path (GNU 9.10).
  }
  // `timeout -v --tree 10 sh -c SCRIPT` as PID 1 with no cgroup2 mounted (unmounted in a private mount namespace),
  // so that --tree takes the proc backend.
  Result TreeAsPid1WithoutCgroup(const std::string& script) {
    return RunProgram("/usr/bin/unshare",
                      {"unshare", "--pid", "--fork", "--mount-proc", "--mount", "/bin/sh", "-c",
                       "for m in $(findmnt -rn -t cgroup2 -o TARGET); do umount -l \"$m\" || exit 9; done; "
                       "exec \"$0\" -v --tree 10 sh -c \"$1\"",
                       dir_ + "/timeout", script});
  }
  std::string dir_;
};

// The command orphans three children that exit at once; it then counts the processes left in the namespace
// (a glob: no fork of its own) until only PID 1 and itself remain. Zombies never go: without reaping, 5 after 5 s.
TEST_F(AsPid1Test, ReapsEveryOrphan) {
  CheckAsPid1({"orphans are reaped",
               {"timeout", "10", "sh", "-c",
                "(sh -c 'exit 0' &); (sh -c 'exit 0' &); (sh -c 'exit 0' &); i=0;"
                " while set -- /proc/[0-9]*; [ $# -gt 2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done;"
                " echo processes=$#"},
               0, "processes=2\n", "", 8});
}

TEST_F(AsPid1Test, ExitStatusStaysGnus) {
  CheckAsPid1({"orphans do not change the status", {"timeout", "10", "sh", "-c", "(sleep 0.2 &); exit 6"}, 6, "", ""});
  CheckAsPid1({"timed out with orphans around", {"timeout", "0.2", "sh", "-c", "(sleep 0.1 &); sleep 10"}, 124, "",
               ""});
}

// The kernel drops a signal PID 1 does not handle: timeout receives them and passes them on (the terminating ones,
// as everywhere; timeout_test's PassesOnEveryTerminatingSignal has the whole list).
TEST_F(AsPid1Test, PassesOnSignalsThatPid1WouldDrop) {
  for (const char* sig : {"USR1", "USR2", "RTMIN"}) {
    const std::string s = sig;
    CheckAsPid1({"passes on " + s,
                 {"timeout", "-v", "10", "sh", "-c",
                  "trap 'echo got " + s + "; kill $! 2>/dev/null; exit 3' " + s + "; kill -" + s +
                      " 1; sleep 10 & wait"},
                 3, "got " + s + "\n", "timeout: sending signal " + s + " to command 'sh'\n"});
  }
  CheckAsPid1({"TERM (docker stop) reaches the command",
               {"timeout", "10", "sh", "-c",
                "trap 'echo got TERM; kill $! 2>/dev/null; exit 3' TERM; kill -TERM 1; sleep 10 & wait"},
               3, "got TERM\n", ""});
}

// As PID 1, WINCH and URG are passed on too (the kernel would drop them; a container runtime may stop with WINCH,
// as the httpd image's STOPSIGNAL does), without the CONT that follows a terminating signal. Elsewhere they are not
// (timeout_test's DoesNotPassOnSignalsThatDoNotEndAProcess).
TEST_F(AsPid1Test, WinchAndUrgArePassedOnWithoutCont) {
  for (const char* sig : {"WINCH", "URG"}) {
    const std::string s = sig;
    CheckAsPid1({"passes on " + s,
                 {"timeout", "-v", "10", "sh", "-c",
                  "trap 'echo got CONT' CONT; trap 'echo got " + s + "; kill $! 2>/dev/null; exit 3' " + s +
                      "; kill -" + s + " 1; sleep 10 & wait"},
                 3, "got " + s + "\n", "timeout: sending signal " + s + " to command 'sh'\n"});
  }
}

// As PID 1, the job-control signals are passed on too, without a CONT after them, as tini and dumb-init pass them
// on (`docker kill -s TSTP` stops the application, `-s CONT` continues it); the kernel would drop them. The command
// catches TSTP, and forks nothing until its trap has run (a child started meanwhile would be stopped too): its
// background sleep, in its group, is stopped; it reads the sleep's state, then sends CONT to PID 1.
std::string JobControlScript(const std::string& sig) {
  const std::string state =
      "i=0; until [ \"$(cut -d' ' -f3 /proc/$c/stat)\" = $1 ] || [ $i -ge 500 ]; do sleep 0.01; i=$((i+1)); done; "
      "cut -d' ' -f3 /proc/$c/stat; ";
  return "state() { " + state + "}; sleep 10 & c=$!; got=; trap got=1 " + sig + "; kill -" + sig +
         " 1; while [ -z \"$got\" ]; do :; done; state T; kill -CONT 1; state S; kill $c";
}

std::string JobControlSent(const std::string& sig) {
  return "timeout: sending signal " + sig + " to command 'sh'\ntimeout: sending signal CONT to command 'sh'\n";
}

TEST_F(AsPid1Test, JobControlSignalsArePassedOnWithoutCont) {
  for (const char* sig : {"TSTP", "TTIN", "TTOU"}) {
    CheckAsPid1({std::string(sig) + " stops the command's group, CONT continues it",
                 {"timeout", "-v", "10", "sh", "-c", JobControlScript(sig)}, 0, "T\nS\n", JobControlSent(sig)});
  }
}

// The same with --tree, through the tree's freeze: cgroup.freeze, or the /proc walk's SIGSTOP, whose CONT would
// discard the TSTP if it came after it (the descendants ran on).
TEST_F(AsPid1Test, JobControlSignalsReachTheTree) {
  const std::string backend = Invoke({"timeout", "-v", "--tree", "10", "true"}).err;
  CheckAsPid1({"--tree: TSTP stops the tree, CONT continues it",
               {"timeout", "-v", "--tree", "10", "sh", "-c", JobControlScript("TSTP")}, 0, "T\nS\n",
               backend + JobControlSent("TSTP")});
  Check({"proc backend", {"unshare"}, 0, "T\nS\n",
         "timeout: --tree: backend proc (no cgroup: no cgroup2 file system is mounted)\n" + JobControlSent("TSTP")},
        TreeAsPid1WithoutCgroup(JobControlScript("TSTP")));
}

// With --tree the tree is frozen to be signalled (cgroup.freeze, or the /proc walk's SIGSTOP): a process that was
// stopped before WINCH stays stopped after it, as without --tree. (Both backends continued it.) The command waits
// until the STOP has landed: a stop still on its way is not yet a stopped process.
TEST_F(AsPid1Test, WinchLeavesAStoppedProcessOfTheTreeStopped) {
  const std::string script =
      "sleep 10 & c=$!; kill -STOP $c; "
      "i=0; until [ \"$(cut -d' ' -f3 /proc/$c/stat)\" = T ] || [ $i -ge 500 ]; do sleep 0.01; i=$((i+1)); done; "
      "kill -WINCH 1; sleep 0.5; cut -d' ' -f3 /proc/$c/stat; kill -KILL $c";
  const std::string winch = "timeout: sending signal WINCH to command 'sh'\n";
  if (Invoke({"timeout", "-v", "--tree", "10", "true"}).err == "timeout: --tree: backend cgroup\n") {
    CheckAsPid1({"cgroup backend", {"timeout", "-v", "--tree", "10", "sh", "-c", script}, 0, "T\n",
                 "timeout: --tree: backend cgroup\n" + winch});
  }
  Check({"proc backend", {"unshare"}, 0, "T\n",
         "timeout: --tree: backend proc (no cgroup: no cgroup2 file system is mounted)\n" + winch},
        TreeAsPid1WithoutCgroup(script));
}

// As PID 1, ALRM is the application's: passed on, not an expiry (which would exit 124).
TEST_F(AsPid1Test, AlrmIsPassedOn) {
  CheckAsPid1({"ALRM reaches the command",
               {"timeout", "-v", "10", "sh", "-c",
                "trap 'echo got ALRM; kill $! 2>/dev/null; exit 3' ALRM; kill -ALRM 1; sleep 10 & wait"},
               3, "got ALRM\n", "timeout: sending signal ALRM to command 'sh'\n"});
}

// As PID 1, -k starts only on expiry or a stop request (TERM, INT, QUIT): a reload HUP must not get the
// application KILLed. The command (its sleeps are short: the signal ends one of them) outlives -k's 0.3 s and
// exits by itself.
TEST_F(AsPid1Test, KillAfterStartsOnlyOnAStopRequest) {
  for (const char* sig : {"HUP", "USR1", "USR2"}) {
    const std::string s = sig;
    CheckAsPid1({s + " does not start -k",
                 {"timeout", "-k", "0.3", "10", "sh", "-c",
                  "trap 'echo got " + s + "' " + s + "; kill -" + s +
                      " 1; i=0; while [ $i -lt 10 ]; do sleep 0.1 2>/dev/null; i=$((i+1)); done; echo alive; exit 5"},
                 5, "got " + s + "\nalive\n", ""});
  }
  CheckAsPid1({"TERM starts -k",
               {"timeout", "-v", "-k", "0.3", "10", "sh", "-c",
                "trap '' TERM; kill -TERM 1; i=0; while [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; exit 5"},
               137, "", "timeout: sending signal TERM to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n"});
}

// As PID 1 the command leads a process group of its own (pid 2 in the new namespace), so that what it sends to its
// own group (kill 0) reaches it once and not timeout, which would pass it on a second time.
TEST_F(AsPid1Test, TheCommandHasAProcessGroupOfItsOwn) {
  CheckAsPid1({"own group",
               {"timeout", "10", "sh", "-c", "echo pid=$$ pgrp=$(cut -d' ' -f5 /proc/$$/stat)"}, 0, "pid=2 pgrp=2\n",
               ""});
  CheckAsPid1({"kill 0 does not reach timeout",
               {"timeout", "-v", "10", "sh", "-c", "trap 'echo got USR1' USR1; kill -USR1 0; sleep 0.5; exit 4"}, 4,
               "got USR1\n", ""});
}

// As PID 1 with a terminal (a container started with one, here `setsid --ctty` in a new PID namespace), the command's
// own group is made the terminal's foreground group. A test thread types on the terminal while the command runs.
class AsPid1WithTerminalTest : public AsPid1Test {
 protected:
  void SetUp() override {
    AsPid1Test::SetUp();
    if (IsSkipped()) return;
    master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    ASSERT_GE(master_, 0);
    ASSERT_EQ(grantpt(master_), 0);
    ASSERT_EQ(unlockpt(master_), 0);
    slave_name_ = ptsname(master_);
  }
  void TearDown() override {
    if (master_ >= 0) close(master_);
  }
  // Runs timeout as PID 1 and session leader with the terminal as stdin and controlling terminal; `keys` are typed
  // once the command has created the file Ready() names (a fixed delay was too short under load or emulation).
  std::string Ready() const { return dir_ + "/ready"; }
  Result RunTyping(const std::vector<std::string>& timeout_args, const std::string& keys) {
    std::vector<std::string> argv = {"unshare", "--pid", "--fork", "--mount-proc", "setsid", "--ctty",
                                     dir_ + "/timeout"};
    argv.insert(argv.end(), timeout_args.begin(), timeout_args.end());
    Options options;
    const std::string slave = slave_name_;
    options.before_exec = [slave] {
      setsid();
      const int fd = open(slave.c_str(), O_RDWR);  // The first terminal a session leader opens is its own.
      dup2(fd, 0);
    };
    std::thread typist([this, keys] {
      if (keys.empty()) return;
      for (int i = 0; i < 2000 && access(Ready().c_str(), F_OK) != 0; ++i) usleep(10000);  // Up to 20 s.
      (void)!write(master_, keys.data(), keys.size());
    });
    Result r = RunProgram("/usr/bin/unshare", argv, options);
    typist.join();
    return r;
  }
  int master_ = -1;
  std::string slave_name_;
};

TEST_F(AsPid1WithTerminalTest, TheCommandsGroupHasTheTerminal) {
  // Fields 5 and 8 of /proc/PID/stat: the process group and the terminal's foreground group.
  Result r = RunTyping({"10", "sh", "-c", "echo pgrp=$(cut -d' ' -f5 /proc/$$/stat) tpgid=$(cut -d' ' -f8 /proc/$$/stat)"},
                       "");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "pgrp=2 tpgid=2\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(AsPid1WithTerminalTest, CtrlCReachesTheCommandOnlyFromTheTerminal) {
  // The terminal's INT goes to the command's group alone: timeout does not get it, so it passes nothing on (-v would
  // say so). The command's trap notes it; its loop of short sleeps goes on to the end.
  Result r = RunTyping({"-v", "10", "sh", "-c",
                        "trap 'echo got INT' INT; : > " + Ready() +
                            "; i=0; while [ $i -lt 20 ]; do sleep 0.1 2>/dev/null; i=$((i+1)); done; exit 3"},
                       "\x03");
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "got INT\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(AsPid1WithTerminalTest, CtrlZStopsTheCommand) {
  // A watcher in another session (not stopped with the group) waits (up to 5 s) for the command to show stopped,
  // prints its state, then continues the group, as `fg` would. In timeout's own group the command would be in an
  // orphaned process group, whose terminal stop signals the kernel discards: it would still be running (S). The
  // command says it is ready only once the watcher has left the group (a Ctrl-Z before its setsid stopped the watcher
  // too, and nothing continued the group), waiting for that without forking, and then waits in wait() for a sleep
  // started before: a shell stopped in the middle of a vfork (dash runs a command so) shows D, not T, until continued.
  const std::string watching = dir_ + "/watching";
  Result r = RunTyping({"30", "sh", "-c",
                        "setsid sh -c \": > " + watching +
                            "; i=0; until [ \\$(cut -d' ' -f3 /proc/$$/stat) = T ] || [ \\$i -ge 50 ]; do "
                            "sleep 0.1; i=\\$((i+1)); done; cut -d' ' -f3 /proc/$$/stat; kill -CONT -$$\" & "
                            "sleep 3 & while [ ! -e " + watching + " ]; do :; done; : > " + Ready() +
                            "; wait $!; echo done; exit 3"},
                       "\x1a");
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "T\ndone\n");
}

// --- --tree --------------------------------------------------------------------------------------------------------

// What -v says first with --tree here: which backend this machine gives (timeout_tree_test pins each one's words).
const std::string& BackendLine() {
  static const std::string* line = new std::string(Invoke({"timeout", "-v", "--tree", "10", "true"}).err);
  return *line;
}

TEST(TreeTest, SignalsDescendantsThatLeftGroupAndSession) {
  Check({"daemons (setsid, double fork) are timed out too",
         {"timeout", "--tree", "0.2", "sh", "-c",
          "setsid sh -c 'sleep 10 & sleep 10 &'; (sleep 10 &); setsid sleep 10 & sleep 10"},
         124, "", ""});
  Check({"-s KILL: timeout kills the tree, not itself: 137",
         {"timeout", "--tree", "-s", "KILL", "0.2", "sh", "-c", "setsid sh -c 'sleep 10 &'; sleep 10"}, 137, "", ""});
  Check({"-v reports the signal once",
         {"timeout", "-v", "--tree=timeout", "0.2", "sh", "-c", "setsid sh -c 'sleep 10 &'; sleep 10"}, 124, "",
         BackendLine() + "timeout: sending signal TERM to command 'sh'\n"});
}

TEST(TreeTest, KillAfterAppliesToEveryDescendant) {
  // The command ignores TERM too, so it is still there for the KILL, which -v names as sent to it. (1 s: it has set
  // its trap by then; 0.2 s was too short for a loaded ASan run, and sh died of the TERM: 124.)
  Check({"a daemon that ignores TERM gets KILL after -k",
         {"timeout", "-v", "-k", "0.2", "--tree", "1", "sh", "-c",
          "trap '' TERM; setsid sh -c 'sleep 10' & wait"},
         137, "", BackendLine() + "timeout: sending signal TERM to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n"});
  // A command that died of the TERM leaves only its descendants for the KILL; -v says so. (1 s: the daemon has set
  // its trap by then.)
  Check({"after the command's end -k's KILL goes to the descendants",
         {"timeout", "-v", "-k", "0.5", "--tree", "1", "sh", "-c", "setsid sh -c \"trap '' TERM; sleep 10\" & wait"},
         124, "",
         BackendLine() + "timeout: sending signal TERM to command 'sh'\n"
                         "timeout: sending signal KILL to the descendants of command 'sh'\n"});
}

// A shell's job (bash -m here; an interactive shell alike): timeout leads the pipeline's process group, which holds
// the rest of the pipeline too. --tree signals the tree and nothing else: the pipeline's reader gets no TERM (plain
// timeout, as GNU's, signals the whole group). The cgroup backend sends one kill() to the group only when timeout
// made that group itself.
TEST(TreeTest, SparesTheRestOfThePipelineItLeads) {
  Check({"the reader of a --tree pipeline is not signalled", {"bash"}, 0, "partner: no signal\nstatus=124 0\n",
         BackendLine() + "timeout: sending signal TERM to command 'sleep'\n"},
        RunProgram("/bin/bash", {"bash", "-c",
                                 "set -m; \"$0\" timeout -v --tree 0.3 sleep 10 | { trap 'echo partner: TERM; exit 7' "
                                 "TERM; sleep 1.5 & wait; echo partner: no signal; }; echo \"status=${PIPESTATUS[*]}\"",
                                 BinaryPath()}));
}

// A child that timeout did not start but inherited through exec (`sh -c 'daemon & exec timeout --tree ...'`, an
// entrypoint's sidecar) is not of the cgroup backend's tree: neither signalled nor waited for, on expiry or with
// --tree=exit. (timeout waited for it for as long as it ran: 10 s here.) The proc backend's tree is every descendant
// of timeout, this child included: it is signalled, and so not waited for long either.
TEST(TreeTest, AChildInheritedThroughExecIsNotOfTheCgroupTree) {
  const bool cgroup = BackendLine() == "timeout: --tree: backend cgroup\n";
  const auto run = [](const std::string& timeout_args) {
    return RunProgram("/bin/sh", {"sh", "-c",
                                  "f=$(mktemp); sh -c 'sleep 10 >/dev/null 2>&1 & echo $! > \"$1\"; exec \"$0\" timeout " +
                                      timeout_args +
                                      "' \"$0\" \"$f\"; echo status=$?; p=$(cat \"$f\"); rm -f \"$f\"; "
                                      "kill -0 $p 2>/dev/null && echo inherited alive; kill $p 2>/dev/null; :",
                                  BinaryPath()});
  };
  Check({"on expiry", {"sh"}, 0, cgroup ? "status=124\ninherited alive\n" : "status=124\n", "", 5},
        run("--tree 0.3 sleep 10"));
  if (!cgroup) return;
  Check({"--tree=exit", {"sh"}, 0, "status=0\ninherited alive\n", BackendLine(), 5},
        run("-v --tree=exit 10 true"));
}

// The group timeout makes for itself is vouched for (one kill(-pgid) reaches its members) only if nobody else is in
// it. setpgid(0, 0) joins a group that already bears timeout's pid, if its old leader (the process that exec'd
// timeout) left it and left members in it. Such a member (the sidecar here) is no part of the tree, and --tree does
// not signal it. Plain timeout, like GNU's, signals its whole group, this sidecar included. (The sidecar is also a
// child timeout inherited through exec: the proc backend, whose tree is every descendant of timeout, signals it as
// such.)
TEST(TreeTest, AGroupJoinedRatherThanMadeIsNotSignalledWhole) {
  const bool cgroup = BackendLine() == "timeout: --tree: backend cgroup\n";
  const std::string kScript =
      "import os, signal, sys, time\n"
      "home = os.getpgrp()\n"
      "os.setpgid(0, 0)\n"
      "r, w = os.pipe()\n"
      "if os.fork() == 0:\n"
      "    got = []\n"
      "    signal.signal(signal.SIGTERM, lambda *a: got.append(1))\n"
      "    os.write(w, b'x')\n"
      "    time.sleep(2)\n"
      "    print('sidecar: TERM' if got else 'sidecar: no signal', flush=True)\n"
      "    os._exit(0)\n"
      "os.read(r, 1)\n"
      "os.setpgid(0, home)\n"
      "os.execv(sys.argv[1], [sys.argv[1], 'timeout', '--tree', '0.3', 'sleep', '10'])\n";
  Check({"--tree: a member of the joined group outside the tree", {"sh"}, 0,
         cgroup ? "status=124\nsidecar: no signal\n" : "status=124\nsidecar: TERM\n", "", 10},
        RunProgram("/bin/sh", {"sh", "-c", "python3 -c \"$1\" \"$0\"; echo status=$?", BinaryPath(), kScript}));
}

// A tracer outside the tree that seizes thread `$tid` (set before), tells whether it could ("ok" or "no ptrace:
// ERRNO" in "$d/seized"), and holds it for `$hold` seconds (1.5 by default): a traced thread that exits is seen by its
// tracer alone until the tracer lets go, and its process cannot be reaped meanwhile. `$r`: the tracer.
constexpr char kHoldAtExit[] =
    "python3 -c 'import ctypes, sys, time\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "ok = libc.ptrace(ctypes.c_long(0x4206), ctypes.c_long(int(sys.argv[1])), None, None) == 0\n"  // PTRACE_SEIZE
    "open(sys.argv[2], \"w\").write(\"ok\" if ok else \"no ptrace: %d\" % ctypes.get_errno())\n"
    "time.sleep(float(sys.argv[3]) if ok else 0)' \"$tid\" \"$d/seized\" \"${hold:-1.5}\" & r=$!; "
    "until [ -s \"$d/seized\" ]; do sleep 0.05; done; "
    "grep -q ok \"$d/seized\" || echo \"$(cat \"$d/seized\")\"; ";

// A member of the tree that was killed but is not reaped yet is still timeout's to wait for, even once the cgroup
// backend's group is empty: the kernel takes an exiting process out of its group's count before it becomes a
// zombie. A tracer holds that state as long as it likes, so every run sees it: timeout used to return at once,
// leaving the killed process to the caller (a zombie, its pid still in /proc); it must return only after reaping it,
// once the tracer has let go. (Without a tracer the window is a few microseconds: 3 runs in 1,200 left one behind, a
// review found.) Single-threaded, and with a second thread held while the first has exited (the main thread a zombie,
// the process still two threads).
void CheckKilledMemberIsReaped(const std::string& name, const std::string& member, bool second_thread) {
  Result r = RunProgram(
      "/bin/sh",
      {"sh", "-c",
       "d=$(mktemp -d); \"$0\" timeout -s KILL --tree 60 sh -c \"$1"
       " & echo \\$! > '$d/pid'; wait\" & t=$!; until [ -s \"$d/pid\" ]; do sleep 0.05; done; p=$(cat \"$d/pid\"); "
       "tid=$p; if [ " + std::string(second_thread ? "1" : "0") + " = 1 ]; then "
       "until [ \"$(ls /proc/$p/task | wc -l)\" = 2 ]; do sleep 0.05; done; tid=$(ls /proc/$p/task | grep -vx $p); "
       "fi; " + kHoldAtExit +
       "kill -ALRM $t; wait $t; echo status=$?; "
       "[ -e /proc/$p ] && echo \"left behind: $(cut -d' ' -f3 /proc/$p/stat)\"; wait $r; rm -r \"$d\"; :",
       BinaryPath(), member});
  if (r.out.rfind("no ptrace", 0) == 0) GTEST_SKIP() << r.out;
  Check({name, {"sh"}, 0, "status=137\n", "", 10, 1}, r);
}

TEST(TreeTest, AKilledMemberIsReapedBeforeTimeoutReturns) {
  CheckKilledMemberIsReaped("-s KILL --tree, a member held by a tracer", "sleep 1000", false);
}

TEST(TreeTest, AKilledMemberWithAThreadHeldIsReapedBeforeTimeoutReturns) {
  CheckKilledMemberIsReaped("-s KILL --tree, a member's second thread held by a tracer",
                            "python3 -c 'import threading, time; threading.Thread(target=time.sleep, args=(1000,))"
                            ".start(); time.sleep(1000)'",
                            true);
}

// The other way round: a child inherited through exec (not of the group) that a tracer holds as a zombie does not
// keep the cgroup backend waiting (it did for as long as the tracer held it, once the wait looked for exiting
// children rather than the group's). The proc backend's tree is every descendant, this child included.
TEST(TreeTest, AnInheritedChildHeldByATracerIsNotWaitedFor) {
  if (BackendLine() != "timeout: --tree: backend cgroup\n") GTEST_SKIP() << "no cgroup backend here";
  Check({"--tree=exit, a sidecar held by a tracer", {"sh"}, 0, "status=0\nreturned while the tracer held it\n", "",
         10},
        RunProgram("/bin/sh", {"sh", "-c",
                               "hold=5; d=$(mktemp -d); sh -c 'sleep 0.2 & echo $! > \"$1/pid\"; "
                               "until [ -s \"$1/seized\" ]; do sleep 0.02; done; "
                               "exec \"$0\" timeout --tree=exit 10 sleep 0.5' \"$0\" \"$d\" & t=$!; "
                               "until [ -s \"$d/pid\" ]; do sleep 0.02; done; tid=$(cat \"$d/pid\"); " +
                                   std::string(kHoldAtExit) +
                                   "wait $t; echo status=$?; kill -0 $r 2>/dev/null && "
                                   "echo 'returned while the tracer held it'; wait $r; rm -r \"$d\"",
                               BinaryPath()}));
}

TEST(TreeTest, WaitsForTheTreeAfterSignallingIt) {
  // The daemon's TERM trap takes 0.5 s: timeout returns only after it has exited (it has no stdout to hold). (1 s:
  // the daemon has set its trap by then.)
  Check({"returns once the last descendant has exited",
         {"timeout", "--tree", "1", "sh", "-c",
          "setsid sh -c \"trap 'sleep 0.5; exit 0' TERM; sleep 10 & wait\" >/dev/null & sleep 10"},
         124, "", "", 5, 1.5});
}

TEST(TreeTest, OnExitCleansUpWhatTheCommandLeft) {
  Check({"--tree=exit: leftovers signalled, the command's status kept",
         {"timeout", "--tree=exit", "10", "sh", "-c", "setsid sh -c 'sleep 10 &'; (sleep 10 &); exit 4"}, 4, "", ""});
  Check({"--tree=exit -v names the descendants",
         {"timeout", "-v", "--tree=exit", "10", "sh", "-c", "(sleep 10 &); exit 0"}, 0, "",
         BackendLine() + "timeout: sending signal TERM to the descendants of command 'sh'\n"});
  // -k's KILL after the command's exit goes to the descendants too, and -v says so (it named the command).
  Check({"--tree=exit -k: -v names the descendants for the KILL too",
         {"timeout", "-v", "-k", "0.2", "--tree=exit", "10", "sh", "-c",
          "d=$(mktemp -d); (trap '' TERM; : >\"$d/r\"; exec sleep 10) & "
          "until [ -e \"$d/r\" ]; do sleep 0.01; done; rm -r \"$d\"; exit 3"},
         3, "",
         BackendLine() + "timeout: sending signal TERM to the descendants of command 'sh'\n"
                         "timeout: sending signal KILL to the descendants of command 'sh'\n"});
  Check({"--tree=exit with nothing left sends nothing", {"timeout", "-v", "--tree=exit", "10", "sh", "-c", "exit 5"},
         5, "", BackendLine()});
  // Plain --tree is GNU on the command's own exit: the leftover lives on (and holds stdout for its 1 s).
  Check({"--tree leaves leftovers alone when the command exits by itself",
         {"timeout", "--tree", "10", "sh", "-c", "(sleep 1 &); exit 4"}, 4, "", "", 5, 0.8});
}

// Without a cgroup and without a /proc of its own PID namespace --tree cannot find descendants: it says so once and
// times out the process group, as plain timeout does (-k included), instead of signalling nobody and waiting for
// ever. The cgroup2 mounts are taken away in a private mount namespace first (else the cgroup backend needs no /proc).
TEST(TreeTest, FailsClosedWithoutAUsableProc) {
  if (RunProgram("/usr/bin/unshare", {"unshare", "--mount", "--pid", "--fork", "--mount-proc", "true"}).status != 0) {
    GTEST_SKIP() << "unshare --mount --pid needs privileges here";
  }
  const std::string kNoCgroup = "for m in $(findmnt -rn -t cgroup2 -o TARGET); do umount -l \"$m\" || exit 9; done; ";
  const std::string kOnly = "; signalling the process group only\n";
  Check({"/proc of another PID namespace", {"unshare"}, 124, "",
         "timeout: --tree: cannot list processes (/proc belongs to another PID namespace)" + kOnly},
        RunProgram("/usr/bin/unshare", {"unshare", "--mount", "--pid", "--fork", "/bin/sh", "-c",
                                        kNoCgroup + "exec \"$0\" timeout --tree 0.2 sleep 10", BinaryPath()}));
#ifdef COREUTILS_SANITIZED
  GTEST_SKIP() << "without /proc the sanitizer runtime itself fails (LeakSanitizer reads /proc/PID/task)";
#endif
  Check({"no /proc at all, -k still KILLs", {"unshare"}, 137, "",
         "timeout: --tree: cannot list processes (/proc is not mounted)" + kOnly},
        RunProgram("/usr/bin/unshare",
                   {"unshare", "--mount", "--pid", "--fork", "--mount-proc", "/bin/sh", "-c",
                    kNoCgroup + "while mountpoint -q /proc; do umount -l /proc || exit 9; done; exec \"$0\" timeout --tree -k 0.2 0.2 sh -c "
                    "\"trap '' TERM; while :; do sleep 0.1; done\"",
                    BinaryPath()}));
}

TEST(TreeTest, UsageErrors) {
  ExpectCase({"bad WHEN", {"timeout", "--tree=later", "1", "true"}, 125, "",
              "timeout: invalid argument 'later' for '--tree'\nValid arguments are:\n  - 'timeout'\n  - 'exit'\n"
              "Try 'timeout --help' for more information.\n"});
  // GNU's abbreviations keep working: --tree shares no prefix with a GNU option.
  Check({"--kill= is still --kill-after", {"timeout", "--kill=0", "0.1", "sleep", "10"}, 124, "", ""});
}

// --- -i/--inactivity -------------------------------------------------------------------------------------------

std::string Lines(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += std::to_string(i) + "\n";
  return s;
}

TEST(InactivityTest, OutputRestartsTheTimer) {
  // 5 lines 0.6 s apart: 3 s in all, each gap 0.9 s inside the 1.5 s timer.
  Check({"stdout keeps it alive",
         {"timeout", "-i", "1.5", "sh", "-c", "for i in 1 2 3 4 5; do echo $i; sleep 0.6; done; exit 3"}, 3, Lines(5),
         "", 10, 2.5});
  Check({"stderr keeps it alive",
         {"timeout", "--inactivity", "1.5", "sh", "-c", "for i in 1 2 3 4 5; do echo $i >&2; sleep 0.6; done"}, 0, "",
         Lines(5), 10, 2.5});
  // 1.5 s is mid-gap, 0.3 s from the 3rd line (1.2 s, plus the start's and two iterations' own cost) and from the
  // 4th (1.8 s): 0.3 s apart with 1.35 s left 0.15 s a side, too little under load.
  Check({"without -i the same command times out",
         {"timeout", "1.5", "sh", "-c", "for i in 1 2 3 4 5; do echo $i; sleep 0.6; done"}, 124, Lines(3), "", 10});
}

TEST(InactivityTest, ItsShortOptionTakesNoArgument) {
  // So `-inf` is -i, then an unknown -n (GNU, without -i, names the 'i').
  Check({"-inf", {"timeout", "-inf", "true"}, 125, "",
         "timeout: invalid option -- 'n'\nTry 'timeout --help' for more information.\n"});
}

TEST(InactivityTest, SilenceTimesOut) {
  Check({"silent after one line", {"timeout", "-i", "0.3", "sh", "-c", "echo a; sleep 10"}, 124, "a\n", ""});
  Check({"partial lines pass through as they are", {"timeout", "-i", "0.3", "sh", "-c", "printf 'a'; sleep 10"}, 124,
         "a", ""});
  Check({"-v and -k as usual", {"timeout", "-v", "-i", "-k", "0.2", "1", "sh", "-c", "trap '' TERM; sleep 10"}, 137,
         "", "timeout: sending signal TERM to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n"});
}

TEST(InactivityTest, OutputAfterAPassedOnSignalDoesNotPostponeTheKill) {
  // -k counts from the first signal, whatever sent it; output moves only the inactivity limit, not -k's KILL.
  // (It did: each line put the KILL off again, and the command ran on until the 30 s limit of silence.)
  // The command ignores TERM and writes a line every 0.1 s; timeout gets a TERM from outside once it runs.
  const std::string started = MakeTempDir() + "/ran";
  Result r = SignalOnceStarted({"timeout", "-i", "-k", "0.3", "30", "sh", "-c",
                                "trap '' TERM; touch \"$0\"; while :; do echo x; sleep 0.1; done", started},
                               started, SIGTERM, /*limit_seconds=*/20);
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.status, 137);  // KILL to timeout's own group: timeout too, as GNU's.
}

TEST(InactivityTest, OutputWithoutPauseDoesNotPostponeTheKill) {
  // timeout and a real-time `yes` on one CPU: timeout runs only while `yes` waits for room in the full pipe, so
  // every wake of it moves output. It used to report that and wait again without looking at the deadline: the KILL
  // never came.
  for (const char* tool : {"/usr/bin/taskset", "/usr/bin/chrt"}) {
    if (access(tool, X_OK) != 0) GTEST_SKIP() << tool << " is not installed";
  }
  if (RunProgram("/usr/bin/chrt", {"chrt", "-f", "1", "/bin/true"}).status != 0) {
    GTEST_SKIP() << "no real-time scheduling here (needs CAP_SYS_NICE or RLIMIT_RTPRIO)";
  }
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &allowed)) ++cpu;
  const std::string started = MakeTempDir() + "/ran";
  Result r = SignalOnceStarted({"timeout", "-i", "-k", "0.3", "60", "sh", "-c",
                                "trap '' TERM; touch \"$0\"; exec /usr/bin/chrt -f 1 yes", started},
                               started, SIGTERM, /*limit_seconds=*/30, {"/usr/bin/taskset", "-c", std::to_string(cpu)});
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.status, 137);
}

TEST(InactivityTest, OutputStillMovesTheLimitAfterASignalPassedOnToTheTree) {
  // --tree: a USR1 passed on (log rotation) is no expiry; output goes on moving the limit. It stopped doing so, and
  // the command timed out 1.5 s after its last line before the USR1, however much it wrote after.
  const std::string started = MakeTempDir() + "/ran";
  Result r = SignalOnceStarted({"timeout", "-i", "--tree", "1.5", "sh", "-c",
                                "trap '' USR1; touch \"$0\"; i=0; while [ $i -lt 20 ]; do echo $i; sleep 0.2; "
                                "i=$((i+1)); done; exit 3",
                                started},
                               started, SIGUSR1);
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "");
}

TEST(InactivityTest, OutputPassesThroughUnchanged) {
  std::string big;
  for (int i = 0; i < 20000; ++i) big += std::to_string(i) + "\n";
  Check({"a lot of output, in order", {"timeout", "-i", "5", "seq", "0", "19999"}, 0, big, ""});
  Check({"both descriptors, each in order",
         {"timeout", "-i", "5", "sh", "-c", "echo o1; echo e1 >&2; echo o2; echo e2 >&2; exit 7"}, 7, "o1\no2\n",
         "e1\ne2\n"});
}

// Where timeout's own output is a file, as `>out` and `>>log` make it. (The runner's own captures are pipes.)
Result InactivityInto(const std::string& redirections, const std::string& dir, const std::string& script) {
  return RunProgram("/bin/sh", {"sh", "-c", "cd \"$1\" && \"$0\" timeout -i 5 sh -c \"$2\" " + redirections,
                                BinaryPath(), dir, script});
}

TEST(InactivityTest, OutputToAFileArrivesWhole) {
  const std::string dir = MakeTempDir();
  Result r = InactivityInto(">out", dir, "seq 0 19999; exit 4");
  EXPECT_EQ(r.status, 4);
  EXPECT_EQ(r.err, "");
  std::string expected;
  for (int i = 0; i < 20000; ++i) expected += std::to_string(i) + "\n";
  EXPECT_EQ(ReadFile(dir + "/out"), expected);
}

TEST(InactivityTest, OutputAppendedToAFileArrivesWhole) {
  // O_APPEND, with 2>&1: one pipe, copied in order to the end of the file.
  const std::string dir = MakeTempDir();
  ASSERT_EQ(RunProgram("/bin/sh", {"sh", "-c", "echo before >\"$0\"/log", dir}).status, 0);
  Result r = InactivityInto(">>log 2>&1", dir, "seq 1 3000; echo e >&2; echo last");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  std::string expected = "before\n";
  for (int i = 1; i <= 3000; ++i) expected += std::to_string(i) + "\n";
  EXPECT_EQ(ReadFile(dir + "/log"), expected + "e\nlast\n");
}

TEST(InactivityTest, CommandsSharingAFileLoseNothing) {
  // Three at once into one open file (`make -j >build.log`): write() takes the file's position under the kernel's
  // lock, splice() does not, and the three overwrote each other's lines when timeout spliced to files.
  const std::string dir = MakeTempDir();
  Result r = RunProgram("/bin/sh", {"sh", "-c",
                                    "cd \"$1\" && { for i in 1 2 3; do \"$0\" timeout -i 10 seq 1 100000 & done; "
                                    "wait; } >shared && wc -l <shared",
                                    BinaryPath(), dir});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "300000\n");
  EXPECT_EQ(r.err, "");
}

TEST(InactivityTest, ANonBlockingSocketGetsWhatWasLeftAtTheEnd) {
  // timeout's stdout is a non-blocking socket nobody reads for 1 s; the command puts 1 MiB in its (enlarged) pipe
  // and exits. What timeout copies after the exit waits for room; it was dropped at the first EAGAIN.
  constexpr char kScript[] = R"py(
import socket, subprocess, sys, time
a, b = socket.socketpair()
a.setblocking(False)
cmd = "import fcntl, os; fcntl.fcntl(1, 1031, 1 << 20); os.write(1, b'x' * (1 << 20))"  # F_SETPIPE_SZ
p = subprocess.Popen([sys.argv[1], "timeout", "-i", "10", "python3", "-c", cmd], stdout=a)
a.close()
time.sleep(1)
got = 0
while True:
    d = b.recv(65536)
    if not d:
        break
    got += len(d)
print(got, p.wait())
)py";
  Result r = RunProgram("/usr/bin/python3", {"python3", "-c", kScript, BinaryPath()});
  EXPECT_EQ(r.out, "1048576 0\n");
  EXPECT_EQ(r.err, "");
}

TEST(InactivityTest, BothDescriptorsIntoOneFileKeepTheirOrder) {
  const std::string dir = MakeTempDir();
  Result r = InactivityInto(">out 2>&1", dir, "echo o1; echo e1 >&2; echo o2; echo e2 >&2; exit 7");
  EXPECT_EQ(r.status, 7);
  EXPECT_EQ(ReadFile(dir + "/out"), "o1\ne1\no2\ne2\n");
}

TEST(InactivityTest, AStalledReaderStallsTheCommand) {
  // Nobody reads timeout's output for 5 s: the command blocks once the pipes are full, which is silence, so it times
  // out at 0.5 s (124). Were timeout to take in all it could, `yes` would never stop, nor the timer, and it would die
  // of the broken pipe once the reader leaves (141).
  Result r = RunProgram("/bin/bash", {"bash", "-c",
                                      "\"$0\" timeout -i 0.5 yes | { sleep 5; head -c 2 >/dev/null; }; "
                                      "echo ${PIPESTATUS[0]}",
                                      BinaryPath()});
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.out, "124\n");
  EXPECT_EQ(r.err, "");
}

TEST(InactivityTest, OutOfDescriptorsIsAnErrorNotALoop) {
  // With 9 descriptors the pipes are made but timeout cannot keep its own stdout aside: it says so (125). It used to
  // put the pipe in its stdout's place all the same, and then copy what the command wrote into itself for ever.
  Options options;
  options.limit_seconds = 20;
  Result r = RunProgram(
      "/bin/sh",
      {"sh", "-c", "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- && ulimit -n 9 && exec \"$0\" timeout -i 5 echo hi",
       BinaryPath()},
      options);
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "timeout: dup: Too many open files\n");
}

TEST(InactivityTest, ClosedPipes) {
  Check({"EOF on stdout while stderr goes on",
         {"timeout", "-i", "5", "sh", "-c", "exec >&-; sleep 0.2; echo e >&2; exit 0"}, 0, "", "e\n"});
  Check({"a command that closes both and stays silent times out",
         {"timeout", "-i", "0.3", "sh", "-c", "exec >&- 2>&-; sleep 10"}, 124, "", ""});
  // A descendant holds the pipe: timeout returns when the command exits, with what the command wrote.
  Check({"returns at the command's exit, not the pipe's EOF",
         {"timeout", "-i", "5", "sh", "-c", "echo a; sleep 10 & exit 2"}, 2, "a\n", ""});
}

TEST(InactivityTest, TimeoutsOwnClosedOutput) {
  Options no_stdout;
  no_stdout.close_stdout = true;
  Check({"stdout closed at start stays closed for the command",
         {"timeout", "-i", "5", "sh", "-c", "test -e /dev/fd/1 || echo closed >&2"}, 0, "", "closed\n"},
        no_stdout);
  // The reader goes away: the command meets the broken pipe itself (SIGPIPE, 141 as without timeout).
  Result r = RunProgram("/bin/bash", {"bash", "-c", BinaryPath() + " timeout -i 5 yes | head -n 1; echo ${PIPESTATUS[0]}"});
  EXPECT_EQ(r.out, "y\n141\n");
  EXPECT_EQ(r.err, "");
  EXPECT_LT(r.seconds, 5);
}

TEST(InactivityTest, AReaderGoneBeforeTheWriteMeansABrokenPipeForTheFirstWrite) {
  // The reader (true) is gone long before the command writes: its first write fails with SIGPIPE, as without
  // timeout. It used to go into timeout's pipe and be lost, and the command ended 0.
  Result r = RunProgram("/bin/bash", {"bash", "-c", BinaryPath() + " timeout -i 5 sh -c 'sleep 1; echo hi; "
                                                                   "echo rc=$? >&2' | true; echo ${PIPESTATUS[0]}"});
  EXPECT_EQ(r.out, "141\n");
  EXPECT_EQ(r.err, "");
}

// --- -i and --tree's cgroup backend wait in ppoll: the deadline is a timer of its own ---------------------------

// Starts `timeout OPTIONS 100 sleep 1000`, and once its timer is armed prints what /proc says of each timerfd
// timeout holds: "clockid C flags F value SECONDS interval (S, NS)", SECONDS whole seconds left.
constexpr char kTimerOf[] = R"sh(
"$1" timeout $2 100 sleep 1000 &
t=$!
i=0  # Until timeout has armed it (settime flags 01), for up to 20 s on a loaded machine.
while [ $i -lt 400 ] && ! grep -qs '^settime flags: *01' /proc/$t/fdinfo/*; do sleep 0.05; i=$((i+1)); done
for f in /proc/$t/fdinfo/*; do
  grep -q '^clockid:' "$f" || continue
  c=$(sed -n 's/^clockid: *//p' "$f"); fl=$(sed -n 's/^settime flags: *//p' "$f")
  v=$(sed -n 's/^it_value: *(\([0-9]*\),.*/\1/p' "$f"); i=$(sed -n 's/^it_interval: *//p' "$f")
  echo "clockid $c flags $fl value $v interval $i"
done
kill $t
wait $t 2>/dev/null  # dash says "Terminated" of a job killed by a signal
echo "status $?"
)sh";

// ppoll's own timeout is stretched by 0.1% of it (100 ms late for 100 s, 1 ms for 1 s); a one-shot timerfd at the
// deadline's absolute CLOCK_MONOTONIC time (clockid 1, TFD_TIMER_ABSTIME) is not. The expiry that GNU's timer
// gives, measured in tools/bench/kill_tree (timeout was ~1 ms behind the library alone at 1 s).
void ExpectAnExactTimer(const std::string& options) {
  Result r = RunProgram("/bin/sh", {"sh", "-c", kTimerOf, "sh", BinaryPath(), options});
  EXPECT_EQ(r.err, "");
  // 99 s left, or down to 80 on a machine too loaded to look at once: "value 8N" or "value 9N", two digits.
  const std::string prefix = "clockid 1 flags 01 value ";
  ASSERT_EQ(r.out.substr(0, prefix.size()), prefix) << r.out;
  const std::string rest = r.out.substr(prefix.size());
  EXPECT_TRUE(rest.size() > 2 && (rest[0] == '8' || rest[0] == '9') && isdigit(rest[1]) && rest[2] == ' ') << r.out;
  EXPECT_EQ(rest.substr(2), " interval (0, 0)\nstatus 143\n") << r.out;
}

TEST(ExactExpiryTest, InactivityWaitsForATimerAtTheDeadline) { ExpectAnExactTimer("-i"); }

TEST(ExactExpiryTest, TheCgroupBackendWaitsForATimerAtTheDeadline) {
  if (Invoke({"timeout", "-v", "--tree", "10", "true"}).err != "timeout: --tree: backend cgroup\n") {
    GTEST_SKIP() << "no cgroup backend here";
  }
  ExpectAnExactTimer("--tree");
}

}  // namespace
}  // namespace coreutils_testing
