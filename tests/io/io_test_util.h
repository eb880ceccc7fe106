#pragma once
// Shared helpers of the io tests: the error a call throws, a temporary directory, whole-file
// text, paths in the source tree.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
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

/// A fresh directory under the system's temporary directory
/// ("samara_test_<tag>_<pid>_<counter>"), removed with everything in it afterwards.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path_ =
        std::filesystem::temp_directory_path() /
        ("samara_test_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// The path of `name` in the directory.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

using samara::test::readText;
using samara::test::writeText;

#ifdef SAMARA_SOURCE_DIR
/// The path of `relative` in the source tree, e.g. sourcePath("tests/data/anim").
inline std::string sourcePath(const std::string& relative) {
  return std::string(SAMARA_SOURCE_DIR) + "/" + relative;
}
#endif

}  // namespace samara::io::test
