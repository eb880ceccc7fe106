#pragma once
// Files that appear whole or not at all: each is written to a temporary name beside its
// target (".NAME.tmp.XXXXXXXXXX", a random suffix, made with O_CREAT|O_EXCL|O_NOFOLLOW so a
// planted file or symbolic link is never written through; mode 0666 less the umask, as any
// new file) and renamed onto the target only when complete, so a failure, an interrupt or
// an exception leaves nothing half-written and keeps an existing target. A target that
// exists and is not a regular file (/dev/null, a FIFO, a terminal, /dev/stdout to a pipe)
// is written directly and never replaced; so is /dev/stdout (/proc/self/fd/N) to a file,
// appended to as the shell opened it.
//
//   AtomicFile     one file written through a stream: stream(), then commit()
//   writeFileAtomically(path, text)   the same for text at hand
//   OutputFiles    where writers put whole files (an interface)
//   StagedFiles    many files, all renamed together by commit()
//   MemoryFiles    the files kept in memory (tests)
//   StreamFiles    one file's bytes to a stream at commit() (`--out -`: standard output)
//
// Every function throws io::Error naming the target: "not a file name", "is a directory",
// "cannot write here: REASON" (e.g. "No such file or directory (does the directory
// exist?)", "Permission denied", "File name too long"), "cannot write to it: REASON" (a
// device or FIFO), "write error: REASON" ("No space left on device", "File too large"),
// "cannot rename the temporary file: REASON".
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace samara::io {

class FileBuf;  // a stream buffer writing to a file descriptor (atomic_file.cpp)

/// Creates a new empty file beside `target`, ".NAME.tmp.XXXXXXXXXX" + `suffix` (exclusively,
/// not through a link, mode 0666 less the umask), opened for writing: returns its descriptor
/// and sets `*path`. Throws io::Error "cannot write here: REASON" naming `target`.
int createTemporaryBeside(const std::string& target, const std::string& suffix, std::string* path);

/// One file written to its temporary and renamed onto `target` by commit(); the destructor
/// removes the temporary unless committed.
class AtomicFile {
 public:
  /// Opens the temporary, or the target itself when it is not a regular file (throws when
  /// `target` is not a file name, is a directory, or cannot be written).
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& target() const { return target_; }
  /// The temporary's path ("" when the target is written directly).
  const std::string& temporary() const { return temp_; }
  /// Closes the stream; throws "write error: REASON" if any write failed. Optional before
  /// commit().
  void close();
  /// Closes (see close()) and renames the temporary onto the target.
  void commit();

 private:
  void openDirect(bool append);
  void openTemporary();

  std::string target_;
  std::string temp_;
  int fd_ = -1;
  std::unique_ptr<FileBuf> buf_;
  std::ostream stream_{nullptr};
  bool closed_ = false;
  bool committed_ = false;
};

/// Writes `text` to `path` through an AtomicFile.
void writeFileAtomically(const std::string& path, const std::string& text);

/// Where writers put whole files. Implementations throw io::Error naming the path.
class OutputFiles {
 public:
  virtual ~OutputFiles() = default;
  /// Writes the file `path` with the bytes `fill` puts into the stream.
  virtual void write(const std::string& path, const std::function<void(std::ostream&)>& fill) = 0;
};

/// Writes each file to its temporary (an AtomicFile) and renames them all to their targets
/// in commit(); until then, and if commit() is never reached (an error, an interrupt), the
/// destructor removes every temporary. An existing target is replaced only at commit().
class StagedFiles final : public OutputFiles {
 public:
  StagedFiles();
  ~StagedFiles() override;
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  /// Throws "the export writes this file twice" for a path written before.
  void write(const std::string& path, const std::function<void(std::ostream&)>& fill) override;
  /// Renames every temporary to its target (checking first that no target is a directory).
  void commit();
  /// The targets written so far, in order.
  std::vector<std::string> targets() const;

 private:
  std::vector<std::unique_ptr<AtomicFile>> files_;
  std::set<std::string> written_;  ///< the targets of files_
};

/// `--out -`: the output goes to standard output instead of a file named "-".
inline bool isStandardOutput(const std::string& out) { return out == "-"; }

/// Writes the one file's bytes to a stream (standard output for `--out -`) in commit(); until
/// then they are kept in memory, so a failed or interrupted run writes nothing. The path is
/// only a name: a second file throws "standard output: takes one file (not PATH)".
class StreamFiles final : public OutputFiles {
 public:
  explicit StreamFiles(std::ostream& out) : out_(out) {}
  void write(const std::string& path, const std::function<void(std::ostream&)>& fill) override;
  /// Writes the bytes and flushes; throws "standard output: write error" if that fails.
  void commit();

 private:
  std::ostream& out_;
  std::string bytes_;
  bool written_ = false;
};

/// Keeps the files in memory (tests).
class MemoryFiles final : public OutputFiles {
 public:
  void write(const std::string& path, const std::function<void(std::ostream&)>& fill) override;
  std::map<std::string, std::string> files;  ///< path → bytes, in path order
  std::vector<std::string> order;            ///< paths in the order written
};

}  // namespace samara::io
