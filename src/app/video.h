#pragma once
// Video by piping raw frames to ffmpeg (Debian package ffmpeg), issue 7. The file is
// encoded under a temporary name beside the target and renamed when ffmpeg has finished,
// so an interrupted or failed recording leaves no half-written video.
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace samara::app {

/// What to tell a user without ffmpeg.
inline constexpr const char* kFfmpegMissing =
    "ffmpeg is not installed (Debian: apt install ffmpeg)";

/// True if `program` is an executable file in one of the directories of $PATH.
bool onPath(const std::string& program);

class VideoWriter {
 public:
  VideoWriter() = default;
  /// Stops ffmpeg if still open and removes the temporary file.
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// Starts ffmpeg reading raw RGB frames of `width` × `height` px at `fps` frames per second
  /// from a pipe. The container and codec follow the extension of `path` (.mp4, .mkv, .mov:
  /// H.264 in yuv420p; an odd size is padded by a pixel). Returns "" or why not.
  std::string open(const std::string& path, int width, int height, double fps);
  bool isOpen() const { return pipe_ != nullptr; }
  int width() const { return width_; }
  int height() const { return height_; }
  /// One frame: RGB rows, top row first, width × height × 3 bytes. Returns "" or why not.
  std::string write(const std::vector<unsigned char>& rgb);
  /// Ends the stream, waits for ffmpeg and renames the video into place. Returns "" or why
  /// not (then no file is left).
  std::string finish();
  /// Stops ffmpeg and removes the temporary file: no video.
  void abandon();

 private:
  std::FILE* pipe_ = nullptr;
  std::string target_;
  std::string temp_;
  int width_ = 0, height_ = 0;
  long long frames_ = 0;
  struct sigaction oldPipe_ = {};
};

}  // namespace samara::app
