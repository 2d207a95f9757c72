#ifndef UTILS_KILL_KILL_H_
#define UTILS_KILL_KILL_H_

int KillMain(int argc, char* argv[]);

#endif  // UTILS_KILL_KILL_H_
