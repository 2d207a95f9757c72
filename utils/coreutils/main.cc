// coreutils -- the multicall binary's entry point; see dispatch.cc for its contract.
#include "utils/coreutils/dispatch.h"

int main(int argc, char* argv[]) { return coreutils::Main(argc, argv); }
