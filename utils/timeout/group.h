// utils/timeout/group.h -- the process group the command's signals go to.
//
// Owns: making timeout the leader of a new group before the spawn, so that the command and its children inherit it
// and one kill(-group) reaches them (GNU; not with --foreground, not as PID 1, whose command gets its own group:
// pid1.h); whom "the group" means once the command runs; and whether that group holds nothing but timeout and the
// tree, which the cgroup backend then signals with one kill. Must not touch: signal masks, the tree's backend, or when
// anything is signalled (the supervisor's).
#ifndef UTILS_TIMEOUT_GROUP_H_
#define UTILS_TIMEOUT_GROUP_H_

#include <sys/types.h>
#include <unistd.h>

#include "utils/timeout/options.h"

namespace timeout {

class ProcessGroup {
 public:
  // SetUp()
  //
  // Before the spawn: notes whether timeout led a group already, and whether the group that bears its pid is taken,
  // then becomes a group leader (errors ignored: GNU goes on if it cannot). `self`: getpid(); `pid1`: self is 1.
  static ProcessGroup SetUp(const Options& options, pid_t self, bool pid1);

  // The group the command's signals go to: ours, or (as PID 1) the command's own.
  pid_t Of(pid_t command) const { return pid1_ ? command : getpgrp(); }

  // A process group that holds nothing but the tree and us: one we made (not a shell's job, which may hold the rest
  // of a pipeline, nor one we joined), or the command's own as PID 1; 0 when neither. The cgroup backend signals its
  // members with one kill(-group) (uucore/cgroup.h).
  pid_t OursAlone(pid_t command) const {
    if (pid1_) return command;
    return !options_.foreground && !led_a_group_ && !group_taken_ && getpgrp() == self_ ? self_ : 0;
  }

 private:
  ProcessGroup(const Options& options, pid_t self, bool pid1) : options_(options), self_(self), pid1_(pid1) {}

  const Options& options_;
  pid_t self_;
  bool pid1_;
  bool led_a_group_ = false;  // We led our group before: a shell's job (with the rest of a pipeline), a session.
  bool group_taken_ = false;  // The group with our pid had members already (--tree only).
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_GROUP_H_
