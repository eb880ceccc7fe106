#pragma once
// Shared helpers of the io tests.
#include <catch2/catch.hpp>

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

}  // namespace samara::io::test
