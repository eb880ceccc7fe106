#include "io/atomic_file.h"

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <system_error>
#include <utility>

#include "io/error.h"

namespace samara::io {

namespace fs = std::filesystem;

std::string temporaryPathFor(const std::string& target) {
  const fs::path t(target);
  return (t.parent_path() /
          ("." + t.filename().string() + ".tmp." + std::to_string(static_cast<long>(::getpid()))))
      .string();
}

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  const fs::path t(target_);
  if (t.filename().empty()) throw Error(target_, "not a file name");
  std::error_code ec;
  if (fs::is_directory(t, ec)) throw Error(target_, "is a directory");
  temp_ = temporaryPathFor(target_);
  stream_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!stream_) throw Error(target_, "cannot write here (does the directory exist?)");
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  stream_.close();
  std::error_code ec;
  fs::remove(temp_, ec);
}

void AtomicFile::close() {
  if (closed_) return;
  closed_ = true;
  stream_.close();
  if (!stream_) throw Error(target_, "write error (disk full?)");
}

void AtomicFile::commit() {
  close();
  std::error_code ec;
  fs::rename(temp_, target_, ec);
  if (ec) throw Error(target_, "cannot rename the temporary file: " + ec.message());
  committed_ = true;
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  AtomicFile file(path);
  file.stream() << text;
  file.commit();
}

StagedFiles::StagedFiles() = default;
StagedFiles::~StagedFiles() = default;  // each uncommitted AtomicFile removes its temporary

void StagedFiles::write(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  const fs::path t(path);
  if (t.filename().empty()) throw Error(path, "not a file name");
  std::error_code ec;
  if (fs::is_directory(t, ec)) throw Error(path, "is a directory");
  for (const std::unique_ptr<AtomicFile>& f : files_) {
    if (f->target() == path) throw Error(path, "the export writes this file twice");
  }
  files_.push_back(std::make_unique<AtomicFile>(path));
  fill(files_.back()->stream());
  files_.back()->close();
}

void StagedFiles::commit() {
  for (const std::unique_ptr<AtomicFile>& f : files_) {
    std::error_code ec;
    if (fs::is_directory(f->target(), ec)) throw Error(f->target(), "is a directory");
  }
  while (!files_.empty()) {
    files_.front()->commit();
    files_.erase(files_.begin());
  }
}

std::vector<std::string> StagedFiles::targets() const {
  std::vector<std::string> t;
  for (const std::unique_ptr<AtomicFile>& f : files_) t.push_back(f->target());
  return t;
}

void StreamFiles::write(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  if (written_) throw Error("standard output", "takes one file (not " + path + ")");
  std::ostringstream s;
  fill(s);
  bytes_ = s.str();
  written_ = true;
}

void StreamFiles::commit() {
  out_ << bytes_;
  out_.flush();
  if (!out_) throw Error("standard output", "write error");
}

void MemoryFiles::write(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  std::ostringstream s;
  fill(s);
  if (files.count(path) == 0) order.push_back(path);
  files[path] = s.str();
}

}  // namespace samara::io
