#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <streambuf>
#include <system_error>
#include <utility>
#include <vector>

#include "io/error.h"

namespace samara::io {

namespace fs = std::filesystem;

/// Writes to a file descriptor through a buffer (it does not close it); remembers the errno
/// of the first write that failed, so the message can say why (ENOSPC, EFBIG, EIO).
class FileBuf final : public std::streambuf {
 public:
  explicit FileBuf(int fd) : fd_(fd) {}
  FileBuf(const FileBuf&) = delete;
  FileBuf& operator=(const FileBuf&) = delete;
  ~FileBuf() override = default;

  /// Writes what is buffered and frees the buffer; false if any write failed.
  bool finish() {
    const bool ok = sync() == 0;
    std::vector<char>().swap(buffer_);
    return ok && error_ == 0;
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? 0 : c;
    if (buffer_.size() >= kBufferBytes && !flushBuffer()) return traits_type::eof();
    buffer_.push_back(traits_type::to_char_type(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto size = static_cast<std::size_t>(n);
    if (buffer_.size() + size > kBufferBytes) {
      if (!flushBuffer()) return 0;
      if (size >= kBufferBytes) return writeAll(s, size) ? n : 0;
    }
    buffer_.insert(buffer_.end(), s, s + size);
    return n;
  }
  int sync() override { return flushBuffer() ? 0 : -1; }

 private:
  static constexpr std::size_t kBufferBytes = 1 << 16;

  bool flushBuffer() {
    const bool ok = writeAll(buffer_.data(), buffer_.size());
    buffer_.clear();
    return ok;
  }
  bool writeAll(const char* s, std::size_t n) {
    if (error_ != 0) return false;
    while (n > 0) {
      const ssize_t w = ::write(fd_, s, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        error_ = w < 0 ? errno : EIO;
        return false;
      }
      s += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

namespace {

std::string reason(int error) { return std::generic_category().message(error); }

/// Ten random characters [0-9A-Za-z] for a temporary's name.
std::string randomSuffix() {
  static const char kChars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  thread_local std::mt19937_64 random([] {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device() ^
           static_cast<std::uint64_t>(::getpid());
  }());
  std::string s(10, '0');
  for (char& c : s) c = kChars[random() % (sizeof kChars - 1)];
  return s;
}

/// True when `path` leads through a symbolic link into /proc (/dev/stdout is
/// /proc/self/fd/1): a process's open file, to be written as it is and never replaced.
bool isProcessFile(const fs::path& path) {
  std::error_code ec;
  fs::path at = fs::absolute(path, ec);
  for (int hop = 0; hop < 40 && !ec; ++hop) {
    const fs::path parent = fs::canonical(at.parent_path(), ec);
    if (ec) return false;
    at = parent / at.filename();
    if (at.string().rfind("/proc/", 0) == 0) return true;
    if (!fs::is_symlink(fs::symlink_status(at, ec)) || ec) return false;
    const fs::path next = fs::read_symlink(at, ec);
    at = next.is_absolute() ? next : parent / next;
  }
  return false;
}

}  // namespace

int createTemporaryBeside(const std::string& target, const std::string& suffix, std::string* path) {
  const fs::path t(target);
  const std::string name = t.filename().string();
  if (name.size() > NAME_MAX) {
    throw Error(target, "cannot write here: " + reason(ENAMETOOLONG) + " (" +
                            std::to_string(name.size()) + " bytes, at most " +
                            std::to_string(NAME_MAX) + ")");
  }
  // ".NAME.tmp.XXXXXXXXXX" within NAME_MAX: a long NAME is shortened in the temporary only.
  const std::size_t room = NAME_MAX - 16 - std::min<std::size_t>(suffix.size(), NAME_MAX - 16);
  const std::string stem = name.substr(0, room);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::string temp =
        (t.parent_path() / ("." + stem + ".tmp." + randomSuffix() + suffix)).string();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      *path = temp;
      return fd;
    }
    if (errno == EEXIST || errno == EINTR) continue;  // taken (a file, a planted link): next
    const int error = errno;
    throw Error(target, "cannot write here: " + reason(error) +
                            (error == ENOENT ? " (does the directory exist?)" : ""));
  }
  throw Error(target, "cannot write here: no free temporary name beside it");
}

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  const fs::path t(target_);
  if (t.filename().empty()) throw Error(target_, "not a file name");
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error(target_, "is a directory");
    if (!S_ISREG(st.st_mode)) {
      openDirect(/*append=*/false);  // a device, FIFO or socket: never replaced
    } else if (isProcessFile(t)) {
      openDirect(/*append=*/true);  // /dev/stdout to a file: the shell truncated it or not
    }
  }
  if (fd_ < 0) openTemporary();
  buf_ = std::make_unique<FileBuf>(fd_);
  stream_.rdbuf(buf_.get());
}

void AtomicFile::openDirect(bool append) {
  const int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0);
  do {
    fd_ = ::open(target_.c_str(), flags);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) throw Error(target_, "cannot write to it: " + reason(errno));
}

void AtomicFile::openTemporary() { fd_ = createTemporaryBeside(target_, "", &temp_); }

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::close() {
  if (closed_) return;
  closed_ = true;
  stream_.flush();
  const bool written = buf_->finish() && static_cast<bool>(stream_);
  int error = buf_->error();
  if (::close(fd_) != 0 && error == 0) error = errno;
  fd_ = -1;
  if (!written || error != 0) {
    throw Error(target_, "write error: " + reason(error != 0 ? error : EIO));
  }
}

void AtomicFile::commit() {
  close();
  if (!temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) {
    throw Error(target_, "cannot rename the temporary file: " + reason(errno));
  }
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
  if (!written_.insert(path).second) throw Error(path, "the export writes this file twice");
  files_.push_back(std::make_unique<AtomicFile>(path));
  fill(files_.back()->stream());
  files_.back()->close();
}

void StagedFiles::commit() {
  for (const std::unique_ptr<AtomicFile>& f : files_) {
    std::error_code ec;
    if (fs::is_directory(f->target(), ec)) throw Error(f->target(), "is a directory");
  }
  for (const std::unique_ptr<AtomicFile>& f : files_) f->commit();  // a committed one stays
  files_.clear();
  written_.clear();
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
