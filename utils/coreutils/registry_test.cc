#include "utils/coreutils/registry.h"

#include <string>

#include "gtest/gtest.h"

namespace coreutils {
namespace {

TEST(RegistryTest, IsSortedAndUnique) {
  absl::Span<const Utility> all = Utilities();
  ASSERT_FALSE(all.empty());
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_LT(absl::string_view(all[i - 1].name), absl::string_view(all[i].name)) << "at " << i;
  }
}

TEST(RegistryTest, EveryEntryIsComplete) {
  for (const Utility& u : Utilities()) {
    EXPECT_NE(u.main, nullptr) << u.name;
    EXPECT_TRUE(u.failure_status == 1 || u.failure_status == 2 || u.failure_status == 125) << u.name;  // 2: printenv
  }
}

TEST(RegistryTest, FindsEveryNameAndNothingElse) {
  for (const Utility& u : Utilities()) EXPECT_EQ(FindUtility(u.name), &u) << u.name;
  for (absl::string_view missing : {"", "coreutils", "tru", "truee", "TRUE", "zzz", "a"}) {
    EXPECT_EQ(FindUtility(missing), nullptr) << missing;
  }
}

}  // namespace
}  // namespace coreutils
