#include "utils/timeout/group.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "uucore/process.h"
#include "utils/timeout/options.h"

namespace timeout {

ProcessGroup ProcessGroup::SetUp(const Options& options, pid_t self, bool pid1) {
  ProcessGroup group(options, self, pid1);
  // As PID 1 the command gets a process group of its own (pid1.h); we lead our own group already (a session
  // leader). Elsewhere the command inherits our new group, as GNU's (unless --foreground).
  group.led_a_group_ = getpgrp() == self;  // A shell's job (with the rest of a pipeline), a session, PID 1.
  // setpgid(0, 0) joins, rather than makes, a group that bears our pid already: its old leader left it, leaving
  // members there, and then exec'd us. Not ours alone then (--tree only: the cgroup backend signals a group of ours
  // whole). ESRCH: no such group; EPERM: there is one, of members we may not signal.
  group.group_taken_ = options.kill_tree != KillTree::kOff && !group.led_a_group_ && !options.foreground && !pid1 &&
                       (kill(-self, 0) == 0 || errno == EPERM);
  if (!options.foreground && !pid1) (void)uucore::BecomeGroupLeader();  // GNU goes on if it cannot.
  return group;
}

}  // namespace timeout
