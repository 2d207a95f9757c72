#ifndef UTILS_NOHUP_NOHUP_H_
#define UTILS_NOHUP_NOHUP_H_

int NohupMain(int argc, char* argv[]);

#endif  // UTILS_NOHUP_NOHUP_H_
