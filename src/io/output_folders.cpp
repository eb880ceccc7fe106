#include "io/output_folders.h"

#include <filesystem>
#include <set>
#include <system_error>

#include "io/error.h"

namespace samara::io {

namespace fs = std::filesystem;

OutputFolders::~OutputFolders() {
  if (kept_) return;
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    std::error_code ec;
    fs::remove(*it, ec);  // an empty folder only: rmdir refuses one that holds anything
  }
}

void OutputFolders::create(const std::string& folder) {
  if (folder.empty()) return;
  std::error_code ec;
  if (fs::is_directory(folder, ec)) return;
  const auto fail = [&folder](const std::string& reason) {
    return Error("", "cannot create folder '" + folder + "': " + reason);
  };
  fs::path at;
  for (const fs::path& part : fs::path(folder)) {
    if (part.empty()) continue;  // the trailing '/' of "x/y/"
    at /= part;
    if (fs::is_directory(at, ec)) continue;
    if (fs::exists(fs::symlink_status(at, ec))) throw fail("'" + at.string() + "' is not a folder");
    if (!fs::create_directory(at, ec) || ec) {
      throw fail(ec ? ec.message() : std::string("it could not be made"));
    }
    created_.push_back(at.string());
  }
}

void OutputFolders::createFor(const std::vector<std::string>& files) {
  std::set<std::string> done;
  for (const std::string& file : files) {
    const std::string folder = fs::path(file).parent_path().string();
    if (done.insert(folder).second) create(folder);
  }
}

}  // namespace samara::io
