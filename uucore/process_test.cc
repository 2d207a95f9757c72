#include "uucore/process.h"

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
