// utils/timeout/timeout.h -- timeout's way in, for the dispatcher (utils/coreutils/registry.cc).
//
// Owns: TimeoutMain() only; the contract is the first lines of timeout.cc, the steps of a run are the other files
// of this folder. Must not touch: anything the dispatcher owns (argv[0]'s name, the program name for messages).
#ifndef UTILS_TIMEOUT_TIMEOUT_H_
#define UTILS_TIMEOUT_TIMEOUT_H_

int TimeoutMain(int argc, char* argv[]);

#endif  // UTILS_TIMEOUT_TIMEOUT_H_
