#ifndef UTILS_SLEEP_SLEEP_H_
#define UTILS_SLEEP_SLEEP_H_

int SleepMain(int argc, char* argv[]);

#endif  // UTILS_SLEEP_SLEEP_H_
