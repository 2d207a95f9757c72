// Replays a fuzzer's seed corpus through its LLVMFuzzerTestOneInput as a plain test, so every CI run checks the
// corpus (and the fuzzer's invariants) even where clang/libFuzzer is not installed.
// Usage: REPLAY CORPUS_DIR...   (Bazel passes the directories as args.)
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char* argv[]) {
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    DIR* dir = opendir(argv[i]);
    if (dir == nullptr) {
      fprintf(stderr, "cannot open corpus %s\n", argv[i]);
      return 1;
    }
    while (dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.') continue;
      const std::string path = std::string(argv[i]) + "/" + e->d_name;
      std::ifstream in(path, std::ios::binary);
      const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());  // Aborts on failure.
      ++replayed;
    }
    closedir(dir);
  }
  printf("replayed %d inputs\n", replayed);
  return replayed > 0 ? 0 : 1;  // An empty corpus is a broken test, not a pass.
}
