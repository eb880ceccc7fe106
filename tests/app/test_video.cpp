// The video writer's colour (issue 15): frames of a known colour, encoded through ffmpeg and
// decoded back as a player would (BT.709, limited range, as the stream is tagged), come back
// within ±3 of the colour per channel. Before the fix ffmpeg converted with BT.601 and
// tagged nothing: red 200,40,40 came back as 212,54,36 under BT.709. Needs ffmpeg and
// ffprobe (a warning and no checks without them).
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../test_util.h"
#include "app/video.h"

namespace {

using samara::app::onPath;
using samara::app::VideoWriter;

/// Everything `command` writes to stdout.
std::string runOutput(const std::string& command) {
  std::string out;
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

/// The first frame of `path` decoded to RGB with ffmpeg, `filter` converting from Y'CbCr.
std::string decodeFirstFrame(const std::string& path, const std::string& filter) {
  return runOutput("ffmpeg -v error -i '" + path + "' -frames:v 1 " + filter +
                   " -f rawvideo -pix_fmt rgb24 -");
}

/// A video of `frames` frames of one colour.
void writeSolid(const std::string& path, int w, int h, double fps, int frames,
                const unsigned char (&rgb)[3]) {
  VideoWriter video;
  REQUIRE(video.open(path, w, h, fps).empty());
  std::vector<unsigned char> frame(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  for (std::size_t i = 0; i < frame.size(); ++i) frame[i] = rgb[i % 3];
  for (int f = 0; f < frames; ++f) REQUIRE(video.write(frame).empty());
  REQUIRE(video.finish().empty());
}

}  // namespace

TEST_CASE("video: BT.709 encoding and tags keep a solid colour", "[app][video]") {
  if (!onPath("ffmpeg") || !onPath("ffprobe")) {
    WARN("ffmpeg or ffprobe is not installed: no check");
    return;
  }
  samara::test::TempDir dir("video");
  const unsigned char red[3] = {200, 40, 40};
  for (const char* ext : {".mp4", ".mkv", ".mov"}) {
    // An odd size too: ffmpeg pads it by a pixel.
    for (const int w : {64, 63}) {
      const std::string path = dir.file(std::string("red") + std::to_string(w) + ext);
      INFO(path);
      writeSolid(path, w, 48, 30.0, 5, red);
      const std::string probe = runOutput(
          "ffprobe -v error -select_streams v:0 -show_entries "
          "stream=pix_fmt,color_range,color_space,color_transfer,color_primaries,"
          "r_frame_rate -of default=nw=1 '" +
          path + "'");
      for (const char* tag :
           {"pix_fmt=yuv420p", "color_range=tv", "color_space=bt709", "color_transfer=bt709",
            "color_primaries=bt709", "r_frame_rate=30/1"}) {
        CHECK_THAT(probe, Catch::Contains(tag));
      }
      // As a player assuming BT.709 limited range shows it, and as ffmpeg reads the tags.
      for (const char* filter : {"-vf scale=in_color_matrix=bt709:in_range=tv", ""}) {
        INFO("decoded with \"" << filter << "\"");
        const std::string rgb = decodeFirstFrame(path, filter);
        REQUIRE(rgb.size() == static_cast<std::size_t>(w + w % 2) * 48 * 3);
        // The middle pixel (away from the edges' chroma and the padding).
        const std::size_t at = (static_cast<std::size_t>(24) * (w + w % 2) + 16) * 3;
        for (int c = 0; c < 3; ++c) {
          const int got = static_cast<unsigned char>(rgb[at + c]);
          INFO("channel " << c << ": " << got << " for " << int(red[c]));
          CHECK(std::abs(got - int(red[c])) <= 3);
        }
      }
    }
  }
}

TEST_CASE("video: the frame rate is the one asked for", "[app][video]") {
  if (!onPath("ffmpeg") || !onPath("ffprobe")) {
    WARN("ffmpeg or ffprobe is not installed: no check");
    return;
  }
  samara::test::TempDir dir("video_fps");
  const unsigned char grey[3] = {128, 128, 128};
  for (const auto& [fps, rate] : {std::pair<double, const char*>{24.0, "24/1"},
                                  {25.0, "25/1"},
                                  {60.0, "60/1"},
                                  {12.5, "25/2"}}) {
    const std::string path = dir.file("grey" + std::to_string(fps) + ".mp4");
    writeSolid(path, 32, 32, fps, 3, grey);
    const std::string probe = runOutput(
        "ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate "
        "-of csv=p=0 '" +
        path + "'");
    CHECK(probe == std::string(rate) + "\n");
  }
}
