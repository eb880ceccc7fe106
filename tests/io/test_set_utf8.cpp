// `--set PATH=VALUE` with bytes that are not UTF-8 (found by fuzz/fuzz_set.cpp: the edited
// scene could not be written or copied and the command ended in "internal error"). The
// path and the value must be valid UTF-8; the error names the file and which one is not.
#include <catch2/catch.hpp>
#include <string>

#include "io/error.h"
#include "io/json_util.h"

using Catch::Matchers::Contains;
using samara::io::applySet;
using samara::io::Error;
using samara::io::Json;

namespace {

std::string setError(const std::string& path, const std::string& value) {
  Json scene = Json::parse(R"({"name": "x", "bodies": [{"mass": {"density": 1}}]})");
  try {
    applySet(&scene, path, value, "s.json");
  } catch (const Error& e) {
    return e.what();
  }
  (void)scene.dump();  // what `save` and `sweep` do with the edited scene
  return "";
}

}  // namespace

TEST_CASE("set edits refuse a value or path that is not UTF-8", "[io][set]") {
  CHECK_THAT(setError("name",
                      "a\xa0"
                      "b"),
             Contains("s.json") && Contains("VALUE is not valid UTF-8") && Contains("a\\xa0b"));
  CHECK_THAT(setError("name\xff", "x"),
             Contains("PATH is not valid UTF-8") && Contains("name\\xff"));
  CHECK_THAT(setError("/bodies/0/\xc0\xaf", "1"), Contains("PATH is not valid UTF-8"));  // overlong
  CHECK_THAT(setError("name", "\xed\xa0\x80"), Contains("not valid UTF-8"));      // a surrogate
  CHECK_THAT(setError("name", "\xf4\x90\x80\x80"), Contains("not valid UTF-8"));  // > U+10FFFF
  CHECK_THAT(setError("name", "ab\xe2\x82"), Contains("ab\\xe2\\x82"));           // cut short
  CHECK_THAT(setError("bodies.0.mass.density", "\"\xff\""), Contains("not valid UTF-8"));
}

TEST_CASE("set edits keep valid UTF-8", "[io][set]") {
  CHECK(setError("name", "h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e").empty());  // é € 𝄞
  CHECK(setError("/bodies/0/n\xc3\xa4me", "1").empty());
}
