// The bad-input suite: runs every case of one table (tests/bad_input/*.jsonc) against the
// real `samara` executable and checks its exit code, its message and that nothing is left
// behind. A table is a JSON array (comments allowed) of cases:
//
//   {"name": "dt 1e-20 overflows the step count",     // unique within the table
//    "files": {"s.json": "{...}"},                      // written into a fresh directory
//                                                       // (a non-string value as JSON)
//    "copy": {"m.obj": "$SRC/tests/data/meshes/x.obj"}, // copied there ($SRC: source tree)
//    "args": ["run", "s.json"],                         // samara's arguments, run in that dir
//    "sh": "ulimit -f 1; $SAMARA run s.json",           // or a shell line ($SAMARA: the exe)
//    "stdin": "...",                                    // optional, default empty
//    "exit": 1,                                         // the expected exit code
//    "words": ["s.json", "/sim/dt"],                    // each must occur in stderr
//    "stdout_words": [], "absent": ["internal error"],  // optional
//    "leaves": ["out.csv"],                             // entries allowed to appear (a
//                                                       // folder: with all it holds)
//    "viewer": true}                                    // skipped in a build without the viewer
//
// After the run the directory (recursively) must hold exactly the entries it had before
// plus "leaves": a failed command leaves nothing half-written.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string substitute(std::string s, const std::string& key, const std::string& value) {
  for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size()))
    s.replace(at, key.size(), value);
  return s;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    names.insert(it->path().lexically_relative(dir).generic_string());  // links not followed
  return names;
}

// Makes `dir` and everything in it writable and removes it (a case may chmod its files).
void removeAll(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(dir, ec);
}

struct Env {
  std::string exe;
  std::string source;
  fs::path work;
  bool viewer = true;  ///< the executable has the viewer (`samara help view` says so)
};

std::string expand(const std::string& s, const Env& env, const fs::path& dir) {
  return substitute(substitute(substitute(s, "$SRC", env.source), "$SAMARA", quote(env.exe)),
                    "$DIR", dir.string());
}

// Runs one case; returns the failures ("" when it passed).
std::string runCase(const json& c, const Env& env, int index) {
  std::ostringstream fail;
  const fs::path dir = env.work / ("case" + std::to_string(index));
  removeAll(dir);
  fs::create_directories(dir);
  const json files = c.value("files", json::object());
  const json copies = c.value("copy", json::object());
  for (const auto& [name, text] : files.items()) {
    fs::create_directories((dir / name).parent_path());
    // A string is the file's text; any other JSON value is written as JSON (a scene).
    std::ofstream(dir / name, std::ios::binary)
        << (text.is_string() ? text.get<std::string>() : text.dump(1));
  }
  for (const auto& [name, from] : copies.items()) {
    fs::create_directories((dir / name).parent_path());
    fs::copy_file(expand(from.get<std::string>(), env, dir), dir / name);
  }
  const std::set<std::string> before = listing(dir);
  std::ofstream(env.work / "stdin", std::ios::binary) << c.value("stdin", std::string());

  std::string line;
  if (c.contains("sh")) {
    line = expand(c.at("sh").get<std::string>(), env, dir);
  } else {
    line = quote(env.exe);
    for (const json& a : c.at("args")) line += " " + quote(expand(a.get<std::string>(), env, dir));
  }
  const fs::path out = env.work / "stdout";
  const fs::path err = env.work / "stderr";
  const std::string command = "cd " + quote(dir.string()) + " && (" + line + ") <" +
                              quote((env.work / "stdin").string()) + " >" + quote(out.string()) +
                              " 2>" + quote(err.string());
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const std::string so = readFile(out);
  const std::string se = readFile(err);

  if (code != c.at("exit").get<int>())
    fail << "  exit " << code << ", expected " << c.at("exit").get<int>() << "\n";
  for (const json& w : c.value("words", json::array()))
    if (se.find(w.get<std::string>()) == std::string::npos)
      fail << "  stderr lacks \"" << w.get<std::string>() << "\"\n";
  for (const json& w : c.value("stdout_words", json::array()))
    if (so.find(w.get<std::string>()) == std::string::npos)
      fail << "  stdout lacks \"" << w.get<std::string>() << "\"\n";
  for (const std::string stream : {"stderr", "stdout"})
    for (const json& w : c.value("absent", json::array()))
      if ((stream == "stderr" ? se : so).find(w.get<std::string>()) != std::string::npos)
        fail << "  " << stream << " has \"" << w.get<std::string>() << "\"\n";
  // No sanitizer report and no "internal error" ever, whatever the case expects.
  for (const char* bad : {"internal error", "runtime error:", "AddressSanitizer", "LeakSanitizer"})
    if (se.find(bad) != std::string::npos) fail << "  stderr has \"" << bad << "\"\n";

  std::set<std::string> allowed = before;
  for (const json& l : c.value("leaves", json::array())) allowed.insert(l.get<std::string>());
  // Everything under an allowed folder is allowed too.
  auto isAllowed = [&](const std::string& name) {
    for (std::string p = name;; p = p.substr(0, p.rfind('/'))) {
      if (allowed.count(p)) return true;
      if (p.find('/') == std::string::npos) return false;
    }
  };
  for (const std::string& name : listing(dir))
    if (!isAllowed(name)) fail << "  left behind: " << name << "\n";
  for (const std::string& name : before)
    if (!fs::exists(fs::symlink_status(dir / name))) fail << "  removed: " << name << "\n";

  if (!fail.str().empty()) {
    fail << "  command: " << line << "\n  stderr: " << se.substr(0, 2000) << "\n";
  }
  removeAll(dir);
  return fail.str();
}

}  // namespace

// Whether this tree is built with AddressSanitizer (the runner is built with the same flags
// as samara): shell rows read SAMARA_SANITIZED, e.g. to leave out `ulimit -v`, under which
// ASan cannot map its shadow memory.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

int main(int argc, char** argv) {
  if (kSanitized) ::setenv("SAMARA_SANITIZED", "1", 1);
  if (argc != 4) {
    std::cerr << "usage: bad_input_runner SAMARA SOURCE_DIR TABLE.jsonc\n";
    return 2;
  }
  Env env{fs::absolute(argv[1]).string(), fs::absolute(argv[2]).string(), {}};
  const fs::path table = argv[3];
  json cases;
  try {
    cases = json::parse(readFile(table), nullptr, true, true);
  } catch (const std::exception& e) {
    std::cerr << table.string() << ": " << e.what() << "\n";
    return 1;
  }
  env.work = fs::temp_directory_path() /
             ("samara_bad_input_" + table.stem().string() + "_" + std::to_string(::getpid()));
  removeAll(env.work);
  fs::create_directories(env.work);
  {
    const fs::path help = env.work / "help_view";
    const std::string line = quote(env.exe) + " help view >" + quote(help.string()) + " 2>&1";
    env.viewer =
        std::system(line.c_str()) == 0 && readFile(help).find("has no viewer") == std::string::npos;
  }
  int failed = 0;
  std::set<std::string> names;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& c = cases[i];
    const std::string name = c.value("name", "case " + std::to_string(i));
    if (!names.insert(name).second) {
      std::cerr << "FAIL " << name << ": duplicate name\n";
      ++failed;
      continue;
    }
    if (c.value("viewer", false) && !env.viewer) {
      std::cout << "skip " << name << " (no viewer in this build)\n";
      continue;
    }
    std::string problems;
    try {
      problems = runCase(c, env, static_cast<int>(i));
    } catch (const std::exception& e) {
      problems = std::string("  the case itself is malformed: ") + e.what() + "\n";
    }
    if (problems.empty()) {
      std::cout << "ok   " << name << "\n";
    } else {
      std::cout << "FAIL " << name << "\n" << problems;
      ++failed;
    }
  }
  removeAll(env.work);
  std::cout << cases.size() - static_cast<std::size_t>(failed) << " of " << cases.size()
            << " cases passed (" << table.filename().string() << ")\n";
  return failed == 0 ? 0 : 1;
}
