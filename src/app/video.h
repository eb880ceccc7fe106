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

/// Why a video cannot be written to `path` ("" = it can): no file name, no extension, or a
/// directory that does not exist or is not writable. VideoWriter::open checks this too.
std::string checkVideoPath(const std::string& path);

/// The ffmpeg command VideoWriter::open runs to encode raw RGB frames from stdin into `path`
/// (see VideoWriter::open for what each extension gets).
std::string ffmpegVideoCommand(const std::string& path, int width, int height, double fps);

class VideoWriter {
 public:
  VideoWriter() = default;
  /// Stops ffmpeg if still open and removes the temporary file.
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// Starts ffmpeg reading raw RGB frames of `width` × `height` px at `fps` frames per second
  /// from a pipe. The container and codec follow the extension of `path` (.mp4, .mkv, .mov,
  /// .m4v: H.264; .webm: ffmpeg's default). Those are yuv420p converted with the BT.709
  /// matrix, limited (tv) range, and tagged BT.709 (primaries, transfer, matrix), as players
  /// assume for HD video; .mp4/.mov/.m4v put the index (moov) first (faststart) so that they
  /// play while downloading. An odd size is padded by a pixel. Returns "" or why not.
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
