// helpgen -- makes a utility's --help header and man page from its NAME.help (tools/helpgen/helpgen.h).
//
// Usage: helpgen --version-from=uucore/cli.h --header=OUT.h --man=OUT.1 utils/NAME/NAME.help
// Exit status: 0 when both files were written; 1 with "helpgen: ..." on stderr otherwise (a format error names the
// line of NAME.help).
#include <stdio.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tools/helpgen/helpgen.h"

namespace {

bool ReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return static_cast<bool>(in);
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

int Fail(const std::string& message) {
  fprintf(stderr, "helpgen: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string version_from, header, man, source_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const std::string& name, std::string* into) {
      if (arg.compare(0, name.size(), name) != 0) return false;
      *into = arg.substr(name.size());
      return true;
    };
    if (!value("--version-from=", &version_from) && !value("--header=", &header) && !value("--man=", &man)) {
      if (!source_path.empty() || arg.empty() || arg[0] == '-') return Fail("unexpected argument " + arg);
      source_path = arg;
    }
  }
  if (version_from.empty() || header.empty() || man.empty() || source_path.empty()) {
    return Fail("usage: helpgen --version-from=cli.h --header=OUT.h --man=OUT.1 NAME.help");
  }
  std::string cli, text, error;
  if (!ReadFile(version_from, &cli)) return Fail("cannot read " + version_from);
  const std::string version = helpgen::VersionFromHeader(cli);
  if (version.empty()) return Fail("no kVersion in " + version_from);
  if (!ReadFile(source_path, &text)) return Fail("cannot read " + source_path);
  helpgen::HelpSource source;
  if (!helpgen::Parse(source_path, text, &source, &error)) return Fail(error);
  if (!WriteFile(header, helpgen::CppHeader(source))) return Fail("cannot write " + header);
  if (!WriteFile(man, helpgen::ManPage(source, version))) return Fail("cannot write " + man);
  return 0;
}
