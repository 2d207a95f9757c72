// tests/testing/pty.h -- a pseudo-terminal to hand to a child on chosen descriptors (nohup's terminal rules).
#ifndef TESTS_TESTING_PTY_H_
#define TESTS_TESTING_PTY_H_

#include <functional>
#include <string>
#include <vector>

namespace coreutils_testing {

// Opens a pty pair in raw mode (no "\n" -> "\r\n"), both ends close-on-exec. Not copyable.
class Pty {
 public:
  Pty();
  ~Pty();
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;

  bool ok() const { return master_ >= 0 && slave_ >= 0; }

  // For Options::before_exec: puts the terminal on each of fds in the child (dup2 of the slave end).
  std::function<void()> OnFds(std::vector<int> fds) const;

  // Makes the terminal take nothing more, while it stays a terminal (isatty() holds): its slave end becomes
  // non-blocking and is written to until the buffers between it and the unread master are full, so a child's write
  // fails with EAGAIN instead of blocking. Returns the number of filler bytes ('x'), which Drain() returns first;
  // 0 if the terminal could not be filled. For the rule "a notice that cannot be written stops nohup".
  size_t Jam();

  // Makes the terminal a cooked one for input (canonical: read() ends at a line's end or at ^D, and a ^D at the
  // start of a line is an end of file that a later read() goes past; no echo) and types KEYS into it, before the
  // child reads them: "X=1\n\x04" then "Y=2\n\x04" is two ends of file, each after a line. False if it could not.
  bool Type(const std::string& keys);

  // Everything written to the terminal, read after the child has exited. Closes the parent's slave end first,
  // so call it once.
  std::string Drain();

 private:
  int master_ = -1;
  int slave_ = -1;
};

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_PTY_H_
