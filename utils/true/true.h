#ifndef UTILS_TRUE_TRUE_H_
#define UTILS_TRUE_TRUE_H_

int TrueMain(int argc, char* argv[]);
int FalseMain(int argc, char* argv[]);

#endif  // UTILS_TRUE_TRUE_H_
