// Faults: commands that cannot be run, under timeout, env and nohup. Like sh: 127 if the command was not found
// (ENOENT, including a missing #! interpreter), 126 if it was found but could not be run, with errno's message; an
// executable file that the kernel cannot run (no #!) is run by /bin/sh, as execvp does.
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/faults/differential.h"

namespace coreutils_faults {
namespace {

using coreutils_testing::Options;

void WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  std::ofstream(path) << content;
  ASSERT_EQ(chmod(path.c_str(), mode), 0) << path;
}

// A directory of commands that fail in every way execve can fail.
class ExecErrorsTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = coreutils_testing::MakeTempDir();
    WriteFile(dir_ + "/noexec", "echo never\n", 0644);
    WriteFile(dir_ + "/badinterp", "#!/nonexistent\necho never\n", 0755);
    WriteFile(dir_ + "/dirinterp", "#!/\necho never\n", 0755);
    WriteFile(dir_ + "/noexecinterp", "#!" + dir_ + "/noexec\n", 0755);
    WriteFile(dir_ + "/noshebang", "echo run by sh\n", 0755);
    WriteFile(dir_ + "/empty", "", 0755);
    ASSERT_EQ(symlink("loop", (dir_ + "/loop").c_str()), 0);
    ASSERT_EQ(mkdir((dir_ + "/subdir").c_str(), 0755), 0);
    options_.cwd = dir_;
  }

  std::string dir_;
  Options options_;
};

struct Prefix {
  std::vector<std::string> argv;  // The utility and its arguments before COMMAND.
  std::string before, after;      // The message is before + quoted COMMAND + after + errno's text.
};

const Prefix kRunners[] = {
    {{"timeout", "10"}, "timeout: failed to run command ", ": "},
    {{"env"}, "env: ", ": "},
    {{"nohup"}, "nohup: failed to run command ", ": "},
    {{"env", "-i", "PATH=/usr/bin:/bin"}, "env: ", ": "},
    {{"timeout", "-k", "1", "-s", "KILL", "--foreground", "10"}, "timeout: failed to run command ", ": "},
};

TEST_F(ExecErrorsTest, CommandsThatCannotBeRun) {
  const std::string long_name(300, 'x');  // Longer than NAME_MAX.
  const std::string long_path = "/" + std::string(5000, 'x');  // Longer than PATH_MAX.
  const struct {
    std::string command;
    int status;
    std::string error;
  } kCommands[] = {
      {"/", 126, "Permission denied"},
      {"./subdir", 126, "Permission denied"},
      {"./noexec", 126, "Permission denied"},
      {"./missing", 127, "No such file or directory"},
      {"missing-command", 127, "No such file or directory"},
      {"", 127, "No such file or directory"},
      {"./badinterp", 127, "No such file or directory"},
      {"./dirinterp", 126, "Permission denied"},
      {"./noexecinterp", 126, "Permission denied"},
      {"./loop", 126, "Too many levels of symbolic links"},
      {"/etc/passwd/x", 126, "Not a directory"},
      {long_name, 126, "File name too long"},
      {long_path, 126, "File name too long"},
  };
  for (const Prefix& runner : kRunners) {
    for (const auto& command : kCommands) {
      std::vector<std::string> argv = runner.argv;
      argv.push_back(command.command);
      argv.push_back("arg");
      const std::string name = runner.argv[0] + " " + command.command.substr(0, 20);
      ExpectFaultCase({name, Fault::kNone, argv, command.status, "",
                       runner.before + "'" + command.command + "'" + runner.after + command.error + "\n"},
                      options_);
    }
  }
}

TEST_F(ExecErrorsTest, ExecutablesWithoutAnInterpreterLineRunInSh) {
  for (const Prefix& runner : kRunners) {
    std::vector<std::string> argv = runner.argv;
    argv.push_back("./noshebang");
    ExpectFaultCase({runner.argv[0] + " noshebang", Fault::kNone, argv, 0, "run by sh\n", ""}, options_);
    argv.back() = "./empty";
    ExpectFaultCase({runner.argv[0] + " empty", Fault::kNone, argv, 0, "", ""}, options_);
  }
}

// The command's failure is reported on stdin/stdout closed too: the child never depends on them.
TEST_F(ExecErrorsTest, ReportedWithStdoutClosed) {
  ExpectFaultCase({"timeout, stdout closed", Fault::kStdoutClosed, {"timeout", "10", "./noexec"}, 126, "",
                   "timeout: failed to run command './noexec': Permission denied\n"},
                  options_);
  ExpectFaultCase({"env, stdout full", Fault::kStdoutFull, {"env", "./missing"}, 127, "",
                   "env: './missing': No such file or directory\n"},
                  options_);
  ExpectFaultCase({"nohup, stdout full", Fault::kStdoutFull, {"nohup", "./badinterp"}, 127, "",
                   "nohup: failed to run command './badinterp': No such file or directory\n"},
                  options_);
}

TEST(EnvChdirTest, ToADirectoryThatCannotBeEntered) {
  const std::string dir = coreutils_testing::MakeTempDir();
  ASSERT_EQ(symlink("loop", (dir + "/loop").c_str()), 0);
  Options options;
  options.cwd = dir;
  for (const FaultCase& c : std::vector<FaultCase>{
           {"missing", Fault::kNone, {"env", "-C", "/nonexistent", "true"}, 125, "",
            "env: cannot change directory to '/nonexistent': No such file or directory\n"},
           {"missing, relative", Fault::kNone, {"env", "--chdir=missing/sub", "true"}, 125, "",
            "env: cannot change directory to 'missing/sub': No such file or directory\n"},
           {"a file", Fault::kNone, {"env", "-C", "/etc/passwd", "true"}, 125, "",
            "env: cannot change directory to '/etc/passwd': Not a directory\n"},
           {"a symlink loop", Fault::kNone, {"env", "-C", "loop", "true"}, 125, "",
            "env: cannot change directory to 'loop': Too many levels of symbolic links\n"},
           {"empty", Fault::kNone, {"env", "-C", "", "true"}, 125, "",
            "env: cannot change directory to '': No such file or directory\n"},
           {"missing, the command is not run", Fault::kNone, {"env", "-C", "/nonexistent", "sh", "-c", "echo ran"},
            125, "", "env: cannot change directory to '/nonexistent': No such file or directory\n"},
           {"missing, with stdout full", Fault::kStdoutFull, {"env", "-C", "/nonexistent", "true"}, 125, "",
            "env: cannot change directory to '/nonexistent': No such file or directory\n"},
       }) {
    ExpectFaultCase(c, options);
  }
}

}  // namespace
}  // namespace coreutils_faults
