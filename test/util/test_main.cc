// main() of every strata test binary: GoogleTest, unless the binary was
// started as a helper process of a cross-process test (see subprocess.h).

#include "gtest/gtest.h"
#include "test/util/subprocess.h"

int main(int argc, char** argv) {
  int exit_code = 0;
  if (strata::test::MaybeRunChild(argc, argv, &exit_code)) return exit_code;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
