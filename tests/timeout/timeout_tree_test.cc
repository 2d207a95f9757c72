// timeout --tree per backend (cgroup v2, the /proc walk, the process group) and --report=FILE.
//
// Each tree scenario runs timeout under a shell script that starts it in the background with a marker in its
// environment (every descendant inherits it, whatever it forks or however it leaves the group and session), waits
// for the command to say it is ready, sends timeout SIGALRM (an expiry, as the timer's own), and then counts the
// processes still alive that carry the marker. It prints one line: timeout's status, the survivors, the backend the
// report names and whether it says -k's KILL was sent. The /proc backend is forced the way a machine without cgroup
// v2 gives it: every cgroup2 mount is taken away in a private mount namespace; and as a container whose seccomp
// profile predates clone3 gives it (clone3-refused: tests/testing/deny_clone3), where the leaf group is made but
// the command cannot be started in it. Reports are parsed with Python's json module, never by pattern.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

// $1 binary, $2 scratch directory, $3 backend (cgroup|proc), $4 timeout's options before DURATION, $5 the command's
// shell script (it sees READY: the file to create once its tree stands; BIN: the binary), $6 "alarm" to send SIGALRM once READY
// exists, else wait for timeout to finish by itself, $7 "noreport" to run timeout without --report (the line then
// says "backend (no report)"), $8 tests/testing/deny_clone3.
constexpr char kScenario[] = R"sh(
bin=$1 d=$2 backend=$3 opts=$4 shape=$5 alarm=$6 rep=$7 deny=$8
if [ "$rep" = noreport ]; then ropt=; else ropt=--report=$d/report; fi
mark="coreutils-tree-test-$$"
if [ "$backend" = proc ]; then
  set -- unshare --mount sh -c 'for m in $(findmnt -rn -t cgroup2 -o TARGET); do umount -l "$m" || exit 9; done; exec "$@"' sh
elif [ "$backend" = clone3-refused ]; then
  set -- "$deny"
else
  set --
fi
TREE_MARK=$mark READY=$d/ready BIN=$bin "$@" "$bin" timeout $opts $ropt 60 sh -c "$shape" &
t=$!
if [ "$alarm" = alarm ]; then
  i=0
  while [ ! -e "$d/ready" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
  kill -ALRM $t
fi
# timeout waits for its tree. If it has not returned 30 s on, it never will: say what is left (on stdout, so the
# case fails showing it) and end it, rather than hang silently until the test's limit.
i=0
while [ "$(cut -d' ' -f3 /proc/$t/stat 2>/dev/null)" != Z ] && [ -e /proc/$t ] && [ $i -lt 600 ]; do
  sleep 0.05; i=$((i+1))
done
if [ "$(cut -d' ' -f3 /proc/$t/stat 2>/dev/null)" != Z ] && [ -e /proc/$t ]; then
  state=$(grep -E '^(State|SigPnd|ShdPnd|SigBlk)' /proc/$t/status | tr '\n\t' '  ')
  echo "timeout $t has not returned 30 s after the expiry: $state"
  for p in /proc/[0-9]*; do
    if tr '\0' '\n' <$p/environ 2>/dev/null | grep -qx "TREE_MARK=$mark"; then
      g=$(sed -n 's/^0:://p' $p/cgroup 2>/dev/null)
      echo "left: $(cat $p/stat 2>/dev/null) wchan=$(cat $p/wchan 2>/dev/null) cgroup=$g"
      for root in /sys/fs/cgroup/unified /sys/fs/cgroup; do
        if [ -f "$root$g/cgroup.events" ]; then
          echo "  $(tr '\n' ' ' <"$root$g/cgroup.events")freeze $(cat "$root$g/cgroup.freeze" 2>/dev/null)"; break
        fi
      done
    fi
  done
  kill -KILL $t
fi
wait $t
s=$?
sleep 0.3  # A process that escaped would have time to fork again.
n=0
for p in /proc/[0-9]*; do
  if tr '\0' '\n' <$p/environ 2>/dev/null | grep -qx "TREE_MARK=$mark"; then n=$((n+1)); kill -KILL ${p#/proc/}; fi
done
if [ "$rep" = noreport ]; then
  b="(no report)"
else
  b=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["tree"]["backend"], "killed", str(r["killed"]).lower())' "$d/report")
fi
echo "status $s survivors $n backend $b"
)sh";

// What `timeout -v --tree` says about its backend on this machine.
std::string BackendHere() { return Invoke({"timeout", "-v", "--tree", "10", "true"}).err; }

bool CanHideCgroups() {
  return RunProgram("/usr/bin/unshare", {"unshare", "--mount", "true"}).status == 0;
}

// tests/testing/deny_clone3: runs a command with clone3 failing ENOSYS (a seccomp filter).
std::string DenyClone3() { return RunfilePath("tests/testing/deny_clone3"); }

// Why the clone3-refused cases cannot run here ("" when they can): they need the cgroup backend to be refused.
std::string WhyNotClone3Refused() {
  if (BackendHere() != "timeout: --tree: backend cgroup\n") return "no cgroup backend here: " + BackendHere();
  Result r = RunProgram(DenyClone3(), {"deny_clone3", "/bin/true"});
  return r.status == 0 ? "" : "no seccomp filter here: " + r.err;
}

class TreeBackendTest : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "cgroup" && BackendHere() != "timeout: --tree: backend cgroup\n") {
      GTEST_SKIP() << "no writable cgroup v2 group here: " << BackendHere();
    }
    if (GetParam() == "proc" && !CanHideCgroups()) GTEST_SKIP() << "unshare --mount needs privileges here";
    if (GetParam() == "clone3-refused") {
      if (std::string why = WhyNotClone3Refused(); !why.empty()) GTEST_SKIP() << why;
    }
  }
  // The backend the report names: clone3-refused runs the /proc walk.
  std::string Backend() const { return GetParam() == "clone3-refused" ? "proc" : GetParam(); }
  // One line: "status S survivors N backend B killed true|false".
  std::string Scenario(const std::string& options, const std::string& shape, bool alarm = true, bool report = true) {
    Options run;
    run.limit_seconds = 120;
    Result r = RunProgram("/bin/sh", {"sh", "-c", kScenario, "sh", BinaryPath(), MakeTempDir(), GetParam(), options,
                                      shape, alarm ? "alarm" : "wait", report ? "report" : "noreport", DenyClone3()},
                          run);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(r.hung);
    return r.out;
  }
  std::string Expected(int status) {
    return "status " + std::to_string(status) + " survivors 0 backend " + Backend() + " killed false\n";
  }
};

TEST_P(TreeBackendTest, ASetsidDaemonThatKeepsForking) {
  EXPECT_EQ(Scenario("--tree", "setsid sh -c 'while :; do sleep 1000 & sleep 0.02; done' & "
                               "sleep 0.3; touch \"$READY\"; sleep 1000"),
            Expected(124));
}

TEST_P(TreeBackendTest, ADoubleForkedDaemon) {
  EXPECT_EQ(Scenario("--tree", "(setsid sleep 1000 &); (sh -c 'sleep 1000 &' &); touch \"$READY\"; sleep 1000"),
            Expected(124));
}

TEST_P(TreeBackendTest, ATreeOfAThousand) {
  EXPECT_EQ(Scenario("--tree", "i=0; while [ $i -lt 1000 ]; do sleep 1000 & i=$((i+1)); done; "
                               "touch \"$READY\"; wait"),
            Expected(124));
}

TEST_P(TreeBackendTest, ProcessesThatChangeTheirOwnGroupAndSession) {
  // Ready once each has done so: python3 leads its own group and has become sleep (python's start can take longer
  // than a fixed wait on a loaded machine), the setsid shell has exec'd sleep after starting its own.
  EXPECT_EQ(Scenario("--tree", "python3 -c 'import os; os.setpgid(0, 0); os.execvp(\"sleep\", [\"sleep\", \"1000\"])' & "
                               "p=$!; setsid sh -c 'sleep 1000 & exec sleep 1000' & q=$!; "
                               "until [ \"$(cut -d' ' -f2,5 /proc/$p/stat)\" = \"(sleep) $p\" ] && "
                               "[ \"$(cut -d' ' -f2 /proc/$q/stat)\" = \"(sleep)\" ]; do sleep 0.05; done; "
                               "touch \"$READY\"; sleep 1000"),
            Expected(124));
}

TEST_P(TreeBackendTest, TreeExitClearsWhatACommandThatExitsAtOnceLeaves) {
  EXPECT_EQ(Scenario("--tree=exit", "setsid sh -c 'sleep 1000 &'; (sleep 1000 &); sleep 1000 & exit 4",
                     /*alarm=*/false),
            Expected(4));
}

TEST_P(TreeBackendTest, TreeExitKeepsTheCommandsStatusWhenKillAfterClearsTheRest) {
  // The command exited by itself (6): -k's KILL to a leftover that ignores TERM clears the tree, but nothing timed
  // out, so timeout exits 6 (it said 124) and the report says killed, not timed out.
  EXPECT_EQ(Scenario("--tree=exit -k 0.3",
                     "sh -c 'trap \"\" TERM; touch \"$READY\"; sleep 1000' & "
                     "until [ -e \"$READY\" ]; do sleep 0.05; done; exit 6",
                     /*alarm=*/false),
            "status 6 survivors 0 backend " + Backend() + " killed true\n");
}

TEST_P(TreeBackendTest, TwoNestedTimeoutsWithTree) {
  // The outer one times out: the inner timeout and everything below it, its own group included, are signalled.
  EXPECT_EQ(Scenario("--tree", "\"$BIN\" timeout --tree 100 sh -c "
                               "'setsid sh -c \"sleep 1000 &\"; sleep 1000 & touch \"$READY\"; wait'"),
            Expected(124));
}

TEST_P(TreeBackendTest, AStoppedProcessIsContinuedToActOnTheSignal) {
  // It stopped itself with a handler for TERM: only the SIGCONT that follows TERM lets the handler run (as GNU's
  // timeout continues its group). Without it the tree would stand until -k's KILL, which the report would say.
  EXPECT_EQ(Scenario("--tree -k 20", "sh -c 'trap \"exit 3\" TERM; kill -STOP $$; sleep 1000' & "
                                     "until [ \"$(cut -d' ' -f3 /proc/$!/stat)\" = T ]; do sleep 0.05; done; "
                                     "touch \"$READY\"; wait"),
            Expected(124));
}

TEST_P(TreeBackendTest, StopIsFollowedByCont) {
  // -s STOP: every process is stopped and then continued, as timeout continues a group it signals, so the tree
  // goes on to end by itself (the proc backend left it stopped, until -k's KILL).
  EXPECT_EQ(Scenario("--tree -s STOP -k 20", "sh -c 'sleep 1.5' & touch \"$READY\"; wait"), Expected(124));
}

TEST_P(TreeBackendTest, KillWithoutAReportLeavesNothing) {
  // Without --report nobody reads a count, so the cgroup backend writes cgroup.kill at once, unlisted.
  EXPECT_EQ(Scenario("--tree -s KILL", "setsid sh -c 'while :; do sleep 1000 & sleep 0.02; done' & "
                                       "(setsid sleep 1000 &); sleep 0.3; touch \"$READY\"; sleep 1000",
                     /*alarm=*/true, /*report=*/false),
            "status 137 survivors 0 backend (no report)\n");
}

INSTANTIATE_TEST_SUITE_P(Backends, TreeBackendTest, testing::Values("cgroup", "proc", "clone3-refused"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param == "clone3-refused" ? std::string("clone3_refused") : info.param;
                         });

// --- -v names the backend ------------------------------------------------------------------------------------------

TEST(TreeVerboseTest, SaysWhichBackendRan) {
  if (BackendHere() != "timeout: --tree: backend cgroup\n") GTEST_SKIP() << "no cgroup backend here";
  ExpectCase({"cgroup", {"timeout", "-v", "--tree", "10", "true"}, 0, "", "timeout: --tree: backend cgroup\n"});
}

TEST(TreeVerboseTest, SaysWhyTheProcBackendRan) {
  if (!CanHideCgroups()) GTEST_SKIP() << "unshare --mount needs privileges here";
  Result r = RunProgram("/usr/bin/unshare",
                        {"unshare", "--mount", "sh", "-c",
                         "for m in $(findmnt -rn -t cgroup2 -o TARGET); do umount -l \"$m\" || exit 9; done; "
                         "exec \"$0\" timeout -v --tree 10 true",
                         BinaryPath()});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "timeout: --tree: backend proc (no cgroup: no cgroup2 file system is mounted)\n");
}

// --- clone3 refused: the leaf is made, the command cannot start in it ----------------------------------------------

TEST(Clone3RefusedTest, SaysWhyTheProcBackendRan) {
  if (std::string why = WhyNotClone3Refused(); !why.empty()) GTEST_SKIP() << why;
  Result r = RunProgram(DenyClone3(), {"deny_clone3", BinaryPath(), "timeout", "-v", "--tree", "10", "true"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  // The first line comes before the command starts (so before anything it writes); the second once clone3 refused.
  EXPECT_EQ(r.err,
            "timeout: --tree: backend cgroup\n"
            "timeout: --tree: backend proc (cannot start the command in the cgroup: clone3: Function not implemented)\n");
}

TEST(Clone3RefusedTest, EpermAsFromDockersOlderProfile) {
  if (std::string why = WhyNotClone3Refused(); !why.empty()) GTEST_SKIP() << why;
  Result r = RunProgram(DenyClone3(),
                        {"deny_clone3", "--eperm", BinaryPath(), "timeout", "-v", "--tree", "10", "sh", "-c", "exit 3"});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err,
            "timeout: --tree: backend cgroup\n"
            "timeout: --tree: backend proc (cannot start the command in the cgroup: clone3: Operation not permitted)\n");
}

TEST(Clone3RefusedTest, InactivityStillSeesTheOutput) {
  if (std::string why = WhyNotClone3Refused(); !why.empty()) GTEST_SKIP() << why;
  // The command is started a second time, without the cgroup: -i's pipes must be handed to it again (they were
  // not, so it wrote past timeout's relay and timed out after 2 s of output every 0.5 s: 124).
  Result r = RunProgram(DenyClone3(), {"deny_clone3", BinaryPath(), "timeout", "-i", "--tree", "2", "sh", "-c",
                                       "for i in 1 2 3 4 5 6; do echo e$i; sleep 0.5; done"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "e1\ne2\ne3\ne4\ne5\ne6\n");
  EXPECT_EQ(r.err, "");
}

TEST(Clone3RefusedTest, TheLeafIsRemovedAtOnce) {
  if (std::string why = WhyNotClone3Refused(); !why.empty()) GTEST_SKIP() << why;
  // The leaf made before the refusal is gone while the command runs: a shell looks for it beside itself (timeout's
  // group; the leaf's name carries timeout's pid, the shell's $PPID). A smoke test: the old order (removed just
  // after the restart, not before) passed it too, the shell being slower than timeout's rmdir.
  Result r = RunProgram(
      DenyClone3(),
      {"deny_clone3", BinaryPath(), "timeout", "--tree", "10", "sh", "-c",
       "g=$(sed -n 's/^0:://p' /proc/self/cgroup); root=$(findmnt -rn -t cgroup2 -o TARGET | head -n1); "
       "ls -d \"$root$g\"/coreutils-timeout.*.$PPID.* 2>/dev/null || echo no leaf of timeout"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "no leaf of timeout\n");
  EXPECT_EQ(r.err, "");
}

// --- SIGKILLed with the cgroup backend -----------------------------------------------------------------------------

// What happens when timeout itself is SIGKILLed: nothing of it runs again, so the command gets the -s signal from the
// kernel (parent-death signal) and dies; a descendant that outlives it stays in the leaf group, which is left
// behind, still populated. The next `timeout --tree` removes the leaf once it is empty (its creator is gone).
constexpr char kKilled[] = R"sh(
bin=$1 d=$2
"$bin" timeout --tree 60 sh -c 'sleep 1000 & echo $! >"$0/child"; touch "$0/ready"; wait' "$d" &
t=$!
i=0; while [ ! -e "$d/ready" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
kill -KILL $t; wait $t; echo "timeout: $?"
child=$(cat "$d/child")
leaf="$(findmnt -rn -t cgroup2 -o TARGET | head -n1)$(sed -n 's/^0:://p' /proc/$child/cgroup)"
case "$leaf" in */coreutils-timeout.*) echo "the survivor is in the leaf";; esac
[ -d "$leaf" ] && echo "the leaf stays"
kill -KILL $child
i=0; while grep -qs coreutils-timeout /proc/$child/cgroup && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
sleep 0.1
"$bin" timeout --tree 10 true && [ ! -e "$leaf" ] && echo "the next run removed it"
)sh";

TEST(TreeKilledTest, TheLeafIsRemovedByTheNextRunOnceEmpty) {
  if (BackendHere() != "timeout: --tree: backend cgroup\n") GTEST_SKIP() << "no cgroup backend here";
  Result r = RunProgram("/bin/sh", {"sh", "-c", kKilled, "sh", BinaryPath(), MakeTempDir()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "timeout: 137\nthe survivor is in the leaf\nthe leaf stays\nthe next run removed it\n");
}

// A leaf of a PID namespace gone for good (inode 1: none has it), left by a timeout SIGKILLed there: no pid can
// say whether its creator lives, the creator's lock (none) can. The next timeout --tree removes it once empty.
constexpr char kForeignLeaf[] = R"sh(
bin=$1
g=$(sed -n 's/^0:://p' /proc/self/cgroup)
root=$(findmnt -rn -t cgroup2 -o TARGET | head -n1)
leaf="$root${g%/}/coreutils-timeout.1.$$.0.l"
mkdir "$leaf" || exit 3
"$bin" timeout --tree 10 true
if [ -e "$leaf" ]; then echo "the leaf stays"; rmdir "$leaf"; else echo "the next run removed it"; fi
)sh";

TEST(TreeKilledTest, ALeafOfAnotherNamespaceIsRemovedOnceItsCreatorIsGone) {
  if (BackendHere() != "timeout: --tree: backend cgroup\n") GTEST_SKIP() << "no cgroup backend here";
  Result r = RunProgram("/bin/sh", {"sh", "-c", kForeignLeaf, "sh", BinaryPath()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "the next run removed it\n");
}

// --- --report=FILE -----------------------------------------------------------------------------------------------

// The report as "key=value" lines, in the file's key order, nested keys joined with '.', JSON's literals as Python
// prints them (None, True, False). `dynamic` keys print their type instead of their value.
constexpr char kFlatten[] = R"py(
import json, sys
doc = json.loads(open(sys.argv[1]).read())
dynamic = {"command.pid", "elapsed_s", "cpu.user_s", "cpu.sys_s", "max_rss_kib"}
def walk(prefix, value):
    if isinstance(value, dict):
        for k, v in value.items():
            walk(prefix + k if not prefix else prefix + "." + k, v)
    elif prefix in dynamic:
        print("%s=<%s>" % (prefix, type(value).__name__))
    else:
        print("%s=%r" % (prefix, value))
walk("", doc)
)py";

std::string Flatten(const std::string& path) {
  Result r = RunProgram("/usr/bin/python3", {"python3", "-c", kFlatten, path});
  EXPECT_EQ(r.err, "") << path;
  return r.out;
}

std::string Field(const std::string& path, const std::string& expr) {
  return RunProgram("/usr/bin/python3",
                    {"python3", "-c", "import json,sys; d=json.load(open(sys.argv[1])); print(" + expr + ")", path})
      .out;
}

std::string Flat(int status, bool timed_out, const std::string& signal, bool killed, const std::string& exit,
                 const std::string& command_signal, const std::string& backend = "None", int signalled = -1,
                 const std::string& forwarded = "[]") {
  const auto b = [](bool v) { return v ? "True" : "False"; };
  return "status=" + std::to_string(status) + "\ntimed_out=" + b(timed_out) + "\nsignal=" + signal +
         "\nkilled=" + b(killed) + "\nforwarded=" + forwarded + "\ncommand.pid=<int>\ncommand.exit=" + exit +
         "\ncommand.signal=" + command_signal +
         "\ncommand.core=False\nelapsed_s=<float>\ncpu.user_s=<float>\ncpu.sys_s=<float>\nmax_rss_kib=<int>\n"
         "tree.backend=" + backend + "\ntree.signalled=" + (signalled < 0 ? "0" : std::to_string(signalled)) +
         "\nerror=None\n";
}

class ReportTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  std::string file() const { return dir_ + "/report.json"; }
  // timeout --report=FILE OPTIONS... DURATION sh -c SCRIPT, sent a TERM from outside once SCRIPT has started (it
  // touches "$0" first).
  Result TermFromOutside(std::vector<std::string> options, const std::string& duration, const std::string& script) {
    const std::string started = dir_ + "/ran";
    std::vector<std::string> argv = {"timeout", "--report=" + file()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {duration, "sh", "-c", script, started});
    return SignalOnceStarted(argv, started, SIGTERM);
  }
  std::string dir_;
};

TEST_F(ReportTest, TimedOut) {
  ExpectCase({"124", {"timeout", "--report=" + file(), "0.2", "sleep", "10"}, 124, "", ""});
  EXPECT_EQ(Flatten(file()), Flat(124, true, "'TERM'", false, "None", "'TERM'", "None", 1));
  EXPECT_EQ(Field(file(), "0.15 <= d['elapsed_s'] < 5"), "True\n");
}

// elapsed_s counts from where DURATION counts from, so a command that timed out never ran less than DURATION by its
// report. It counted from the spawn's return, after the exec: 0.0139 for 0.02, and below 0.02 in 25 of 30 runs
// (29 of 30 with --tree, whose set-up comes before the spawn too), on a 2-core machine with other work running.
TEST_F(ReportTest, ATimedOutCommandRanAtLeastTheDuration) {
  for (const std::vector<std::string>& options : {std::vector<std::string>{}, {"--tree"}, {"-i"}}) {
    std::vector<std::string> argv = {"timeout", "--report=" + file()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {"0.02", "sleep", "10"});
    const std::string label = options.empty() ? "no option" : options[0];
    for (int i = 0; i < 3; ++i) {
      ExpectCase({label, argv, 124, "", ""});
      EXPECT_EQ(Field(file(), "d['elapsed_s'] >= 0.02 or d['elapsed_s']"), "True\n") << label;
    }
  }
}

// The report names the signal as -v does: 0 as "0" (GNU 9.10's "sending signal 0"), not kill -l's "EXIT".
TEST_F(ReportTest, SignalZeroIsNamedAsVerboseNamesIt) {
  ExpectCase({"-s 0", {"timeout", "-v", "-s", "0", "--report=" + file(), "0.05", "sleep", "1"}, 124, "",
              "timeout: sending signal 0 to command 'sleep'\n"});
  EXPECT_EQ(Field(file(), "d['signal'], d['timed_out'], d['command']['exit']"), "0 True 0\n");
}

TEST_F(ReportTest, ACommandThatExits124ItselfDidNotTimeOut) {
  ExpectCase({"124 of its own", {"timeout", "--report=" + file(), "10", "sh", "-c", "exit 124"}, 124, "", ""});
  EXPECT_EQ(Flatten(file()), Flat(124, false, "None", false, "124", "None"));
}

TEST_F(ReportTest, KillAfterSaysKilled) {
  // 1 s: sh must have set its trap before the TERM (0.2 s was too short for a loaded ASan run: 124).
  ExpectCase({"137 from -k", {"timeout", "-k", "0.2", "--report=" + file(), "1", "sh", "-c", "trap '' TERM; sleep 10"},
              137, "", ""});
  EXPECT_EQ(Flatten(file()), Flat(137, true, "'TERM'", true, "None", "'KILL'", "None", 2));
}

TEST_F(ReportTest, KillAfterCountsACommandThatLeftTheGroup) {
  // The command (setsid) and timeout's group, each signalled twice: TERM, then -k's KILL. The report was written
  // before the command's KILL, and said 3. 1 s: setsid, then sh, must have set the trap before the TERM (0.2 s was
  // too short for a loaded ASan run: 124).
  ExpectCase({"137 from -k", {"timeout", "-k", "0.2", "--report=" + file(), "1", "setsid", "sh", "-c",
                              "trap '' TERM; exec sleep 10"}, 137, "", ""});
  EXPECT_EQ(Flatten(file()), Flat(137, true, "'TERM'", true, "None", "'KILL'", "None", 4));
}

// A KILL to our own group ends timeout too, before it can reap the command: the report written just before it
// still says how long the run took.
TEST_F(ReportTest, AKillToOurOwnGroupStillSaysTheElapsedTime) {
  ExpectCase({"137", {"timeout", "-s", "KILL", "--report=" + file(), "0.2", "sleep", "10"}, 137, "", ""});
  EXPECT_EQ(Field(file(), "d['elapsed_s'] >= 0.2 or d['elapsed_s']"), "True\n");
}

TEST_F(ReportTest, NamesASignalPassedOn) {
  // The command dies of the TERM timeout passed on, and so does timeout: nobody timed out, the caller sent it.
  EXPECT_EQ(TermFromOutside({}, "30", "touch \"$0\"; exec sleep 30").status, 143);
  EXPECT_EQ(Flatten(file()), Flat(143, false, "None", false, "None", "'TERM'", "None", 1, "['TERM']"));
}

TEST_F(ReportTest, KillAfterASignalPassedOnIsNoTimeOut) {
  // -k's KILL after a passed-on TERM: status 137, as GNU (which counts that as timed out); the report says what
  // happened: the caller's TERM, passed on, then -k's KILL; the time limit never ran out.
  EXPECT_EQ(TermFromOutside({"-k", "0.3"}, "30", "trap '' TERM; touch \"$0\"; sleep 30").status, 137);
  EXPECT_EQ(Flatten(file()), Flat(137, false, "None", true, "None", "'KILL'", "None", 2, "['TERM']"));
}

TEST_F(ReportTest, TheLimitAfterASignalPassedOnSendsKill) {
  // A passed-on TERM armed -k (30 s); the 3 s limit runs out first and sends KILL, as GNU's (whichever comes first).
  EXPECT_EQ(TermFromOutside({"-k", "30"}, "3", "trap '' TERM; touch \"$0\"; sleep 60").status, 137);
  EXPECT_EQ(Flatten(file()), Flat(137, true, "'KILL'", true, "None", "'KILL'", "None", 2, "['TERM']"));
}

TEST_F(ReportTest, ACommandKilledByASignalOfItsOwn) {
  // timeout dies of the same signal, as GNU; the report was written first.
  Result r = Invoke({"timeout", "--report=" + file(), "10", "sh", "-c", "kill -USR1 $$"});
  EXPECT_EQ(r.signal, SIGUSR1);
  EXPECT_EQ(Flatten(file()), Flat(138, false, "None", false, "None", "'USR1'"));
}

TEST_F(ReportTest, ACommandThatCannotRun) {
  ExpectCase({"127", {"timeout", "--report=" + file(), "10", "/nonexistent/cmd"}, 127, "",
              "timeout: failed to run command '/nonexistent/cmd': No such file or directory\n"});
  // Nothing was sent at expiry (it said TERM): signal is null, as timed_out is false.
  EXPECT_EQ(Field(file(), "d['status'], d['command']['pid'], d['elapsed_s'], d['timed_out'], d['signal'], d['error']"),
            "127 None 0.0 False None failed to run command '/nonexistent/cmd': No such file or directory\n");
  ExpectCase({"126", {"timeout", "--report=" + file(), "10", dir_}, 126, "",
              "timeout: failed to run command '" + dir_ + "': Permission denied\n"});
  EXPECT_EQ(Field(file(), "d['status'], d['command']['pid'], d['signal'], d['error']"),
            "126 None None failed to run command '" + dir_ + "': Permission denied\n");
}

TEST_F(ReportTest, AFileThatCannotBeOpenedStopsTimeoutBeforeTheCommand) {
  ExpectCase({"125", {"timeout", "--report=" + dir_ + "/no/such/dir/r", "10", "touch", dir_ + "/ran"}, 125, "",
              "timeout: failed to open '" + dir_ + "/no/such/dir/r' for writing: No such file or directory\n"});
  EXPECT_NE(access((dir_ + "/ran").c_str(), F_OK), 0) << "the command ran";
  ExpectCase({"a directory", {"timeout", "--report=" + dir_, "10", "true"}, 125, "",
              "timeout: failed to open '" + dir_ + "' for writing: Is a directory\n"});
  // An empty name and a name ending in '/' are refused as open(2) refuses them, also before the command runs.
  ExpectCase({"empty", {"timeout", "--report=", "10", "touch", dir_ + "/ran"}, 125, "",
              "timeout: failed to open '' for writing: No such file or directory\n"});
  ExpectCase({"a directory to be", {"timeout", "--report=" + dir_ + "/new/", "10", "touch", dir_ + "/ran"}, 125, "",
              "timeout: failed to open '" + dir_ + "/new/' for writing: Is a directory\n"});
  EXPECT_NE(access((dir_ + "/ran").c_str(), F_OK), 0) << "the command ran";
  EXPECT_NE(system(("ls -A " + dir_ + " | grep -q .").c_str()), 0) << "a file was left in " << dir_;
  ExpectCase({"no parent", {"timeout", "--report=" + dir_ + "/no/new/", "10", "true"}, 125, "",
              "timeout: failed to open '" + dir_ + "/no/new/' for writing: No such file or directory\n"});
}

TEST_F(ReportTest, IsReplacedAtomically) {
  // While the command runs FILE still holds the old report, and the new one waits in a file without a name
  // (O_TMPFILE), which gets one only to be renamed over FILE at the end.
  ASSERT_EQ(system(("echo old >" + file()).c_str()), 0);
  Result r = Invoke({"timeout", "--report=" + file(), "10", "sh", "-c", "cat \"$0\"; ls -A \"$1\" | wc -l", file(),
                     dir_});
  EXPECT_EQ(r.out, "old\n1\n");
  EXPECT_EQ(Field(file(), "d['status']"), "0\n");
  EXPECT_EQ(RunProgram("/bin/sh", {"sh", "-c", "ls -A \"$0\"", dir_}).out, "report.json\n") << "a temporary file left";
}

TEST_F(ReportTest, GoesToStderrOrAnInheritedDescriptor) {
  Result r = Invoke({"timeout", "--report=/dev/stderr", "10", "sh", "-c", "exit 3"});
  EXPECT_EQ(r.status, 3);
  FILE* f = fopen(file().c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs(r.err.c_str(), f);
  fclose(f);
  EXPECT_EQ(Field(file(), "d['status'], d['command']['exit']"), "3 3\n");
  // /dev/fd/3 opened for appending by the shell: written at the end, not truncated.
  Result a = RunProgram("/bin/sh", {"sh", "-c", "echo first >\"$1\"; \"$0\" timeout --report=/dev/fd/3 10 true 3>>\"$1\"; "
                                                "head -n1 \"$1\"; tail -n1 \"$1\" | cut -c1-11",
                                    BinaryPath(), file()});
  EXPECT_EQ(a.out, "first\n{\"status\":0\n");
}

TEST_F(ReportTest, CountsTheCommandsCpuAndMemory) {
  ASSERT_EQ(Invoke({"timeout", "--report=" + file(), "60", "sh", "-c",
                    "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; "
                    "dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null"})
                .status,
            0);
  EXPECT_EQ(Field(file(), "d['cpu']['user_s'] > 0.02, d['cpu']['sys_s'] >= 0, d['max_rss_kib'] >= 60000"),
            "True True True\n");
}

TEST_F(ReportTest, NamesTheTreeBackend) {
  const std::string here = BackendHere();
  const std::string backend = here == "timeout: --tree: backend cgroup\n" ? "cgroup" : "proc";
  // 1 s: both sleeps have been forked by then (3 processes signalled), even on a loaded machine.
  ExpectCase({"--tree", {"timeout", "--tree", "--report=" + file(), "1", "sh", "-c", "sleep 10 & sleep 10"}, 124, "",
              ""});
  EXPECT_EQ(Field(file(), "d['tree']['backend'], d['tree']['signalled']"), backend + " 3\n");
}

// --- A closed fd 0, 1 or 2 stays closed, and nothing timeout opens takes its place ---------------------------------
// (The report file, a cgroup or a pipe opened as the lowest free descriptor became the command's stdout or stderr,
// or took timeout's own messages.)

// The command says on stderr whether its fd 1 is open ("open"/"closed"); dash's [ is a builtin, so /proc/self is it.
constexpr char kSaysFd1[] = "if [ -e /proc/self/fd/1 ]; then echo open >&2; else echo closed >&2; fi";

TEST_F(ReportTest, AClosedStdoutStaysClosedWithInactivity) {
  Options closed;
  closed.close_stdout = true;
  Result r = Invoke({"timeout", "-i", "--report=" + file(), "10", "sh", "-c", kSaysFd1}, closed);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "closed\n");
  EXPECT_EQ(Field(file(), "d['status']"), "0\n");  // One JSON object, nothing of the command's before it.
}

TEST_F(ReportTest, AClosedStderrTakesNoneOfTimeoutsMessages) {
  Options closed;
  closed.close_stderr = true;
  Result r = Invoke({"timeout", "-v", "--report=" + file(), "0.1", "sleep", "10"}, closed);
  EXPECT_EQ(r.status, 124);
  EXPECT_EQ(Field(file(), "d['status'], d['timed_out']"), "124 True\n");
}

TEST(ClosedStdoutTreeTest, KeepsTheCgroupBackendAndInactivity) {
  if (BackendHere() != "timeout: --tree: backend cgroup\n") GTEST_SKIP() << "no cgroup backend here";
  // The cgroup's directory landed on fd 1, the -i pipe was put over it, clone3 got a pipe for a cgroup and failed,
  // and the proc backend ran without -i's pipes, with the directory as the command's stdout.
  Options closed;
  closed.close_stdout = true;
  Result r = Invoke({"timeout", "-v", "-i", "--tree", "10", "sh", "-c", kSaysFd1}, closed);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "timeout: --tree: backend cgroup\nclosed\n");
}

}  // namespace
}  // namespace coreutils_testing
