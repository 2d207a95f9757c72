#include "tests/testing/locales.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <string>

namespace coreutils_testing {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

GeneratedLocale MakeLocale(const std::string& source, const std::string& charmap) {
  static std::map<std::string, GeneratedLocale> made;
  const std::string name = source + "." + charmap;
  auto it = made.find(name);
  if (it != made.end()) return it->second;
  GeneratedLocale locale;
  locale.name = name;
  const char* tmp = getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/locales";
  mkdir(dir.c_str(), 0755);
  if (!Exists("/usr/share/i18n/locales/" + source)) {
    locale.skip_reason = "no locale source /usr/share/i18n/locales/" + source + " (Debian package 'locales')";
  } else if (!Exists("/usr/bin/localedef")) {
    locale.skip_reason = "no /usr/bin/localedef";
  } else {
    const std::string out = dir + "/" + name;
    const pid_t pid = fork();
    if (pid == 0) {
      // localedef warns about charmap details on stderr; only its status matters here.
      execl("/usr/bin/localedef", "localedef", "--no-archive", "-i", source.c_str(), "-f", charmap.c_str(),
            out.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    // localedef exits 1 for warnings while still writing the locale; the files decide.
    if (!Exists(out + "/LC_CTYPE")) {
      locale.skip_reason = "localedef could not make " + name + " (exit status " + std::to_string(status) + ")";
    }
  }
  if (locale.skip_reason.empty()) locale.env = {"LOCPATH=" + dir, "LC_ALL=" + name};
  made[name] = locale;
  return locale;
}

bool HasGermanCatalog() { return Exists("/usr/share/locale/de/LC_MESSAGES/coreutils.mo"); }

}  // namespace coreutils_testing
