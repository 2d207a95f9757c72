// Start-up without iostreams: replaces libstdc++'s std::ios_base::Init constructor and destructor with no-ops.
//
// Abseil 20220623 includes <iostream> from absl/status/status.h, so its status.cc (and every one of our files that
// uses absl::Status) carries a static ios_base::Init object. Its constructor builds the eight
// standard streams and the global locale with all its facets: about 45,000 instructions at every start of every
// utility, half of our start-up, for streams no production code here uses (we write with stdio; see STYLE.md).
// Linked statically, this definition wins over the archive member, which is then never pulled in.
//
// The price: std::cout, std::cerr, std::clog, std::cin and their wide twins are never constructed in this binary.
// tests/coreutils_test.cc (NoStandardStreamsTest) fails the build's tests if any of them is referenced.
// Sanitizer builds link dynamically and do not use this file (see BUILD.bazel).
#include <ios>

namespace std {

ios_base::Init::Init() {}
ios_base::Init::~Init() {}

}  // namespace std
