// Output files, messages and CSV text (issue 16): the cases that the bad-input tables
// cannot express (device nodes made with mknod, several writers in one process, the umask)
// and the text helpers behind the messages and the CSV cells.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_test_util.h"
#include "io/atomic_file.h"
#include "io/csv.h"
#include "io/error.h"

using namespace samara_cli_test;
using samara::io::AtomicFile;

namespace {

struct stat statOf(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st;
}

}  // namespace

TEST_CASE("--out a character device (made with mknod as root) is written and never replaced",
          "[cli][hardening]") {
  if (::geteuid() != 0) {
    WARN("not root: mknod is not allowed, the device cases are skipped");
    return;
  }
  TempDir dir;
  const std::string null = dir.file("null");
  const std::string full = dir.file("full");
  REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);  // as /dev/null
  REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);  // as /dev/full

  const Result ok =
      exe(dir, "run " + quote(kFallingPlate) + " --duration 0.01 --out " + quote(null));
  CHECK(ok.code == 0);
  CHECK(ok.err.empty());
  CHECK(S_ISCHR(statOf(null).st_mode));
  CHECK(statOf(null).st_rdev == makedev(1, 3));

  const Result bad = exe(
      dir, "export " + quote(kFallingPlate) + " --format glb --duration 0.1 --out " + quote(full));
  CHECK(bad.code == 1);
  CHECK_THAT(bad.err, Catch::Contains("full: write error: No space left on device"));
  CHECK(S_ISCHR(statOf(full).st_mode));
  CHECK(statOf(full).st_rdev == makedev(1, 7));
  // Nothing else appeared beside them (no temporary).
  std::vector<std::string> names = dir.entries();
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"full", "null"});
}

TEST_CASE("AtomicFile: two writers of one target in one process get distinct temporaries",
          "[io][hardening]") {
  TempDir dir;
  const std::string target = dir.file("x.csv");
  AtomicFile a(target);
  AtomicFile b(target);
  CHECK(a.temporary() != b.temporary());  // the old names were .x.csv.tmp.PID for both
  CHECK(fs::path(a.temporary()).parent_path() == dir.path());
  CHECK_THAT(fs::path(a.temporary()).filename().string(), Catch::StartsWith(".x.csv.tmp."));
  a.stream() << "A";
  b.stream() << "B";
  a.commit();
  CHECK(readText(target) == "A");
  b.commit();
  CHECK(readText(target) == "B");
  CHECK(dir.entries() == std::vector<std::string>{"x.csv"});
}

TEST_CASE("AtomicFile: a link planted at this process's old temporary name is not followed",
          "[io][hardening]") {
  TempDir dir;
  const std::string victim = dir.write("victim", "keep\n");
  const std::string planted = dir.file(".x.csv.tmp." + std::to_string(::getpid()));
  fs::create_symlink(victim, planted);
  samara::io::writeFileAtomically(dir.file("x.csv"), "new\n");
  CHECK(readText(victim) == "keep\n");
  CHECK(readText(dir.file("x.csv")) == "new\n");
  CHECK(fs::is_symlink(planted));
}

TEST_CASE("AtomicFile: the file's mode is 0666 less the umask as for any new file",
          "[io][hardening]") {
  TempDir dir;
  const mode_t old = ::umask(027);
  samara::io::writeFileAtomically(dir.file("a"), "a");
  ::umask(002);
  samara::io::writeFileAtomically(dir.file("b"), "b");
  ::umask(old);
  CHECK((statOf(dir.file("a")).st_mode & 0777) == 0640);
  CHECK((statOf(dir.file("b")).st_mode & 0777) == 0664);
}

TEST_CASE("AtomicFile: the reasons a file cannot be written", "[io][hardening]") {
  TempDir dir;
  const auto messageOf = [](const std::string& path) {
    try {
      AtomicFile f(path);
    } catch (const samara::io::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(messageOf(dir.file("no/x.csv")),
             Catch::Contains("No such file or directory (does the directory exist?)"));
  CHECK_THAT(messageOf(dir.file(std::string(256, 'n'))),
             Catch::Contains("File name too long (256 bytes, at most 255)"));
  dir.write("f", "");
  CHECK_THAT(messageOf(dir.file("f/x.csv")), Catch::Contains("Not a directory"));
  CHECK_THAT(messageOf(dir.path().string()), Catch::Contains("is a directory"));
  CHECK(messageOf(dir.file(std::string(255, 'n'))).empty());  // the longest name works
}

TEST_CASE("printable: control characters and raw bytes and overrides escaped (UTF-8 kept)",
          "[io][hardening]") {
  using samara::io::printable;
  CHECK(printable("plain ascii / é ü 漢字 🙂") == "plain ascii / é ü 漢字 🙂");
  CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(printable("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(printable(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(printable("\x7f\x07") == "\\x7f\\x07");
  CHECK(printable("\xff\xfe") == "\\xff\\xfe");
  CHECK(printable("\xc2\x9b"
                  "2J") == "\\u009b2J");  // C1 CSI
  CHECK(printable("ab\xe2\x80\xae"
                  "cd") == "ab\\u202ecd");                // right-to-left override
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");           // overlong '/'
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(printable("\xe2\x82") == "\\xe2\\x82");           // truncated
  CHECK(printable("back\\slash") == "back\\slash");
  const std::string nasty = "\x1b]0;t\x07\xff\xe2\x80\xae\n";
  CHECK(printable(printable(nasty)) == printable(nasty));
  // io::Error's message goes through it.
  const samara::io::Error e = samara::io::Error::atField("f\x1b.json", "/a\nb", "bad \xff");
  CHECK(std::string(e.what()) == "f\\x1b.json: /a\\nb: bad \\xff");
}

TEST_CASE("isValidUtf8 and hasControlCharacter", "[io][hardening]") {
  using samara::io::hasControlCharacter;
  using samara::io::isValidUtf8;
  CHECK(isValidUtf8(""));
  CHECK(isValidUtf8("Ahornsamen-ü 🙂"));
  CHECK(isValidUtf8("\xf4\x8f\xbf\xbf"));        // U+10FFFF
  CHECK_FALSE(isValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  CHECK_FALSE(isValidUtf8("\xff"));
  CHECK_FALSE(isValidUtf8("\xc0\x80"));      // overlong NUL
  CHECK_FALSE(isValidUtf8("\xed\xb0\x80"));  // a surrogate
  CHECK_FALSE(isValidUtf8("\xe2\x82"));      // truncated
  CHECK(hasControlCharacter("a\nb"));
  CHECK(hasControlCharacter("a\x7f"));
  CHECK(hasControlCharacter(std::string("a\0", 2)));
  CHECK_FALSE(hasControlCharacter("a b/ü"));
}

TEST_CASE("csvField: formulas neutralised (numbers and plain names as they are)",
          "[io][hardening]") {
  using samara::io::csvField;
  CHECK(csvField("plate") == "plate");
  CHECK(csvField("") == "");
  CHECK(csvField("a,b") == "\"a,b\"");
  CHECK(csvField("=1+2") == "\"'=1+2\"");
  CHECK(csvField("+x") == "\"'+x\"");
  CHECK(csvField("-x") == "\"'-x\"");
  CHECK(csvField("@x") == "\"'@x\"");
  CHECK(csvField("\tx") == "\"'\tx\"");
  CHECK(csvField("\rx") == "\"'\rx\"");
  CHECK(csvField("=a,\"b\"") == "\"'=a,\"\"b\"\"\"");
  CHECK(csvField("-3") == "-3");
  CHECK(csvField("+1e5") == "+1e5");
  CHECK(csvField("-0.25") == "-0.25");
  CHECK(csvField("x=1") == "x=1");
}
