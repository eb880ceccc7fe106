#pragma once
// The folders of a command's outputs, made like `mkdir -p` before its run and removed again
// when the run fails or is cancelled (only the ones this run made, and only while empty), so
// a failed run leaves nothing behind. Every command that writes files (run, forces, export,
// sweep, view's pictures) goes through it, so they agree on missing folders.
#include <string>
#include <vector>

namespace samara::io {

/// The folders made for one run's outputs. The destructor removes every folder made here that
/// is empty, deepest first, unless keep() was called: declare it before the files it holds
/// (StagedFiles, AtomicFile), so their temporaries are gone first.
class OutputFolders {
 public:
  OutputFolders() = default;
  ~OutputFolders();
  OutputFolders(const OutputFolders&) = delete;
  OutputFolders& operator=(const OutputFolders&) = delete;

  /// Makes `folder` and its missing parents (nothing when it exists or is ""). Throws
  /// io::Error "cannot create folder 'FOLDER': REASON" (REASON as "Permission denied", or
  /// "'x' is not a folder" when a file is in the way).
  void create(const std::string& folder);
  /// create() for the folder of each file in `files` (a bare file name needs none).
  void createFor(const std::vector<std::string>& files);
  /// The run succeeded: the destructor removes nothing.
  void keep() { kept_ = true; }
  /// The folders made so far, parents first.
  const std::vector<std::string>& created() const { return created_; }

 private:
  std::vector<std::string> created_;
  bool kept_ = false;
};

}  // namespace samara::io
