#ifndef UTILS_PRINTENV_PRINTENV_H_
#define UTILS_PRINTENV_PRINTENV_H_

// printenv's status for usage and write errors (GNU's PRINTENV_FAILURE), also its registry entry.
inline constexpr int kPrintenvFailure = 2;

int PrintenvMain(int argc, char* argv[]);

#endif  // UTILS_PRINTENV_PRINTENV_H_
