#include "app/video.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "io/atomic_file.h"
#include "io/error.h"

namespace samara::app {

namespace {

namespace fs = std::filesystem;

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

bool onPath(const std::string& program) {
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string dir = path.substr(start, end - start);
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

VideoWriter::~VideoWriter() { abandon(); }

void VideoWriter::abandon() {
  if (pipe_) {
    ::pclose(pipe_);
    pipe_ = nullptr;
    ::sigaction(SIGPIPE, &oldPipe_, nullptr);
  }
  if (!temp_.empty()) {
    std::error_code ec;
    fs::remove(temp_, ec);
    temp_.clear();
  }
}

std::string checkVideoPath(const std::string& path) {
  const fs::path target(path);
  if (target.filename().empty()) return "not a file name";
  if (target.extension().empty()) return "give the video a file extension (.mp4, .mkv, .webm, ...)";
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0) {
    return "cannot write here (does the directory exist?)";
  }
  // The video is renamed onto the target: a device, FIFO or folder there is never replaced.
  if (fs::exists(target, ec) && !fs::is_regular_file(target, ec)) {
    return fs::is_directory(target, ec) ? "is a directory"
                                        : "not a regular file (a video is renamed into place)";
  }
  return "";
}

std::string ffmpegVideoCommand(const std::string& path, int width, int height, double fps) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.10g", fps);
  std::string cmd =
      "ffmpeg -hide_banner -loglevel error -y -f rawvideo -pixel_format rgb24 "
      "-video_size " +
      std::to_string(width) + "x" + std::to_string(height) + " -framerate " + rate +
      " -i - -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2";
  const bool mp4 = ext == ".mp4" || ext == ".mov" || ext == ".m4v";
  if (mp4 || ext == ".mkv" || ext == ".webm") {
    // RGB -> Y'CbCr with the BT.709 matrix into limited range (swscale's default is BT.601,
    // which players assuming BT.709 show shifted: red 200,40,40 as 212,54,36), then say so.
    cmd +=
        ",scale=out_color_matrix=bt709:out_range=tv,format=yuv420p' -pix_fmt yuv420p"
        " -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv";
    if (ext != ".webm") cmd += " -c:v libx264 -crf 18";
    if (mp4) cmd += " -movflags +faststart";
  } else {
    cmd += "'";
  }
  return cmd + " " + shellQuote(path);
}

std::string VideoWriter::open(const std::string& path, int width, int height, double fps) {
  abandon();
  if (!onPath("ffmpeg")) return kFfmpegMissing;
  if (std::string why = checkVideoPath(path); !why.empty()) return why;
  if (width <= 0 || height <= 0) return "an empty picture";
  const fs::path target(path);
  // Made here exclusively under a random name (never a planted link), then overwritten by
  // ffmpeg; the same extension, so that ffmpeg picks the container from the name.
  try {
    ::close(io::createTemporaryBeside(path, target.extension().string(), &temp_));
  } catch (const io::Error& e) {
    temp_.clear();
    return e.message();
  }
  target_ = path;
  width_ = width;
  height_ = height;
  frames_ = 0;
  const std::string cmd = ffmpegVideoCommand(temp_, width, height, fps);
  // A broken pipe (ffmpeg gave up) must be an error from fwrite, not the end of samara.
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &oldPipe_);
  pipe_ = ::popen(cmd.c_str(), "w");
  if (!pipe_) {
    ::sigaction(SIGPIPE, &oldPipe_, nullptr);
    abandon();
    return "cannot start ffmpeg";
  }
  return "";
}

std::string VideoWriter::write(const std::vector<unsigned char>& rgb) {
  if (!pipe_) return "the video is not open";
  const std::size_t bytes =
      static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 3;
  if (rgb.size() != bytes) return "a frame of another size than the video's";
  if (std::fwrite(rgb.data(), 1, bytes, pipe_) != bytes) {
    abandon();
    return "ffmpeg stopped reading frames (see its message above)";
  }
  ++frames_;
  return "";
}

std::string VideoWriter::finish() {
  if (!pipe_) return "the video is not open";
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  ::sigaction(SIGPIPE, &oldPipe_, nullptr);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    abandon();
    return "ffmpeg failed (exit status " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  }
  std::error_code ec;
  fs::rename(temp_, target_, ec);
  if (ec) {
    abandon();
    return "cannot rename the temporary file: " + ec.message();
  }
  temp_.clear();
  return "";
}

}  // namespace samara::app
