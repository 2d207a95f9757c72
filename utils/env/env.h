#ifndef UTILS_ENV_ENV_H_
#define UTILS_ENV_ENV_H_

int EnvMain(int argc, char* argv[]);

#endif  // UTILS_ENV_ENV_H_
