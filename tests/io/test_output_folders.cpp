// io::OutputFolders (folders made like `mkdir -p`, removed again while empty unless kept) and
// io::StreamFiles (the one file of `--out -`, written to a stream at commit()).
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>

#include "../test_util.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "io/output_folders.h"

namespace fs = std::filesystem;

TEST_CASE("OutputFolders makes missing folders and removes the empty ones it made",
          "[io][output]") {
  const samara::test::TempDir dir("output_folders");
  const std::string a = dir.file("a");
  fs::create_directory(a);
  {
    samara::io::OutputFolders folders;
    folders.createFor({dir.file("a/b/c/file.csv"), dir.file("a/b/c/other.csv"), "bare.csv"});
    CHECK(fs::is_directory(dir.file("a/b/c")));
    CHECK(folders.created() == std::vector<std::string>{dir.file("a/b"), dir.file("a/b/c")});
    folders.create(dir.file("a/d/"));
    CHECK(fs::is_directory(dir.file("a/d")));
    samara::test::writeText(dir.path() / "a/d/kept.txt", "x");
  }
  // a/b/c and a/b were empty: removed; a/d holds a file; a was there before.
  CHECK(!fs::exists(dir.file("a/b")));
  CHECK(fs::is_regular_file(dir.file("a/d/kept.txt")));
  {
    samara::io::OutputFolders folders;
    folders.create(dir.file("a/e/f"));
    folders.keep();
  }
  CHECK(fs::is_directory(dir.file("a/e/f")));

  samara::test::writeText(dir.path() / "file", "x");
  samara::io::OutputFolders folders;
  try {
    folders.create(dir.file("file/x"));
    FAIL("no error");
  } catch (const samara::io::Error& e) {
    CHECK(std::string(e.what()) == "cannot create folder '" + dir.file("file/x") + "': '" +
                                       dir.file("file") + "' is not a folder");
  }
  CHECK(folders.created().empty());
}

TEST_CASE("StreamFiles writes its one file at commit()", "[io][output]") {
  std::ostringstream out;
  samara::io::StreamFiles files(out);
  files.write("x.csv", [](std::ostream& s) { s << "a,b\n1,2\n"; });
  CHECK(out.str().empty());
  CHECK_THROWS_AS(files.write("y.csv", [](std::ostream& s) { s << "no"; }), samara::io::Error);
  files.commit();
  CHECK(out.str() == "a,b\n1,2\n");
  CHECK(samara::io::isStandardOutput("-"));
  CHECK(!samara::io::isStandardOutput("-x"));
}
