#pragma once
// Shared helpers of the runtime tests that write files: the tests' temporary directory
// (tests/test_util.h) and reading a file back.
#include <string>

#include "../test_util.h"

namespace samara::runtime::test {

/// A fresh directory for one test case, removed afterwards.
class TempDir : public samara::test::TempDir {
 public:
  TempDir() : samara::test::TempDir("runtime") {}
};

/// The bytes of a file ("" if it cannot be read).
inline std::string readBytes(const std::filesystem::path& p) { return samara::test::readText(p); }

}  // namespace samara::runtime::test
