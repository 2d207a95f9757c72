#include "uucore/signal_wait.h"

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
