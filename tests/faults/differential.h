// tests/faults/differential.h -- one fault-injection case, checked exactly against ours and against GNU's binary.
//
// A case names the fault (a standard stream closed or /dev/full), the argv (argv[0] picks the utility) and the
// exact status, stdout and stderr that GNU coreutils 9.1 gives under LC_ALL=C. The same argv then runs through
// /usr/bin/NAME when that is GNU's, so each expectation is shown to be GNU's and not merely ours.
#ifndef TESTS_FAULTS_DIFFERENTIAL_H_
#define TESTS_FAULTS_DIFFERENTIAL_H_

#include <ostream>
#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace coreutils_faults {

enum class Fault { kNone, kStdoutFull, kStdoutClosed, kStderrFull, kStderrClosed, kBothClosed };

struct FaultCase {
  std::string name;
  Fault fault;
  std::vector<std::string> argv;
  int status;
  std::string out;
  std::string err;
  friend std::ostream& operator<<(std::ostream& os, const FaultCase& c) { return os << c.name; }
};

// Options that inject the fault on top of `base` (whose before_exec, if any, still runs, after the fault).
coreutils_testing::Options WithFault(Fault fault, coreutils_testing::Options base = {});

// GNU's binary for a utility ("/usr/bin/timeout"), or "" if /usr/bin/NAME is missing or not GNU coreutils'.
std::string GnuPath(const std::string& name);

// EXPECTs the case exactly from our binary, then (where GNU has the utility) exactly from GNU's.
void ExpectFaultCase(const FaultCase& c, const coreutils_testing::Options& base = {});

}  // namespace coreutils_faults

#endif  // TESTS_FAULTS_DIFFERENTIAL_H_
