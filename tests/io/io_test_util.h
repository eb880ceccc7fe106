#pragma once
// Shared helpers of the io tests: the error a call throws, a temporary directory, whole-file
// text, paths in the source tree.
#include <catch2/catch.hpp>
#include <string>

#include "../test_util.h"
#include "io/error.h"

namespace samara::io::test {

/// Runs `fn` and returns the io::Error it throws; fails the test if it throws none.
template <typename Fn>
Error errorOf(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no io::Error thrown");
  return Error("", "");
}

using samara::test::readText;
using samara::test::TempDir;
using samara::test::writeText;

#ifdef SAMARA_SOURCE_DIR
/// The path of `relative` in the source tree, e.g. sourcePath("tests/data/anim").
inline std::string sourcePath(const std::string& relative) {
  return std::string(SAMARA_SOURCE_DIR) + "/" + relative;
}
#endif

}  // namespace samara::io::test
