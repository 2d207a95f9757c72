#ifndef UTILS_TIMEOUT_TIMEOUT_H_
#define UTILS_TIMEOUT_TIMEOUT_H_

int TimeoutMain(int argc, char* argv[]);

#endif  // UTILS_TIMEOUT_TIMEOUT_H_
