// Headless viewer check: runs the viewer under xvfb-run for N frames with a screenshot,
// then checks that the PNG exists, has the window's size, is not blank (pixel variance),
// and that the simulated time advanced (the viewer's summary line on stdout).
// Exit codes: 0 pass, 1 fail, 77 skip (xvfb-run is not installed).
//   check_screenshot SAMARA SCENE OUT.png FRAMES WIDTH HEIGHT [VIEWER OPTION...]
// (extra options go to `samara view` as they are; --realtime relaxes the time check;
// `--expect-size WxH` is the check's own: the PNG's size when it differs from the window's,
// as with `--shot-size WxH`; `--differs-from OTHER.png` too: the PNG must differ from OTHER
// (same size) in at least `--min-differing N` pixels, default 1, e.g. an overlay switched on
// versus off)
// (runs `SAMARA view SCENE --frames N --screenshot OUT.png --width W --height H`)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace fs = std::filesystem;

namespace {

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t end = p.find(':', start);
    const std::string dir =
        p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::error_code ec;
    if (!dir.empty() && fs::exists(fs::path(dir) / program, ec)) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: check_screenshot SAMARA SCENE OUT.png FRAMES WIDTH HEIGHT [OPTION...]\n");
    return 1;
  }
  const std::string viewer = argv[1], scene = argv[2], out = argv[3];
  const int frames = std::atoi(argv[4]), width = std::atoi(argv[5]), height = std::atoi(argv[6]);
  bool realtime = false;
  std::string extra;
  int expectWidth = width, expectHeight = height;
  std::string differsFrom;
  long minDiffering = 1;
  for (int i = 7; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--expect-size" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%dx%d", &expectWidth, &expectHeight) != 2) {
        std::printf("usage: --expect-size WxH (got %s)\n", argv[i]);
        return 1;
      }
      continue;
    }
    if (a == "--differs-from" && i + 1 < argc) {
      differsFrom = argv[++i];
      continue;
    }
    if (a == "--min-differing" && i + 1 < argc) {
      minDiffering = std::atol(argv[++i]);
      continue;
    }
    realtime = realtime || a == "--realtime";
    extra += " " + quote(a);
  }
  if (!onPath("xvfb-run")) {
    std::printf("SKIP: xvfb-run is not installed (Debian: xvfb, xauth)\n");
    return 77;
  }
  std::error_code ec;
  fs::remove(out, ec);
  // An authority file of our own: without -f, xvfb-run removes a temporary directory of its
  // own on exit and, when that fails, exits 5 in place of the viewer's status (seen once
  // under ctest -j2).
  const std::string auth = out + ".xauth";
  fs::remove(auth, ec);
  const std::string cmd =
      "xvfb-run -a -f " + quote(auth) + " -s " +
      quote("-screen 0 " + std::to_string(width + 64) + "x" + std::to_string(height + 64) + "x24") +
      " " + quote(viewer) + " view " + quote(scene) + " --frames " + std::to_string(frames) +
      " --screenshot " + quote(out) + " --width " + std::to_string(width) + " --height " +
      std::to_string(height) + extra + " 2>&1";
  std::printf("running: %s\n", cmd.c_str());
  std::FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    std::printf("FAIL: cannot run the viewer\n");
    return 1;
  }
  std::string output;
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe)) output += buf.data();
  const int status = pclose(pipe);
  fs::remove(auth, ec);
  std::printf("%s", output.c_str());
  if (status != 0) {
    std::printf("FAIL: the viewer exited with status %d\n", status);
    return 1;
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(out.c_str(), &w, &h, &channels, 3);
  if (!pixels) {
    std::printf("FAIL: %s is missing or not a PNG\n", out.c_str());
    return 1;
  }
  bool ok = true;
  if (w != expectWidth || h != expectHeight) {
    std::printf("FAIL: %s is %dx%d, expected %dx%d\n", out.c_str(), w, h, expectWidth,
                expectHeight);
    ok = false;
  }
  double variance = 0.0;
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  for (int c = 0; c < 3; ++c) {
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = pixels[3 * i + static_cast<std::size_t>(c)];
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / static_cast<double>(n);
    variance += (sum2 / static_cast<double>(n) - mean * mean) / 3.0;
  }
  if (!differsFrom.empty()) {
    int w2 = 0, h2 = 0, c2 = 0;
    unsigned char* other = stbi_load(differsFrom.c_str(), &w2, &h2, &c2, 3);
    if (!other || w2 != w || h2 != h) {
      std::printf("FAIL: %s is missing, not a PNG or not %dx%d\n", differsFrom.c_str(), w, h);
      ok = false;
    } else {
      long differing = 0;
      for (std::size_t i = 0; i < n; ++i) {
        differing += (pixels[3 * i] != other[3 * i] || pixels[3 * i + 1] != other[3 * i + 1] ||
                      pixels[3 * i + 2] != other[3 * i + 2])
                         ? 1
                         : 0;
      }
      std::printf("%ld pixels differ from %s\n", differing, differsFrom.c_str());
      if (differing < minDiffering) {
        std::printf("FAIL: fewer than %ld pixels differ from %s\n", minDiffering,
                    differsFrom.c_str());
        ok = false;
      }
    }
    if (other) stbi_image_free(other);
  }
  stbi_image_free(pixels);
  std::printf("pixel variance %.1f\n", variance);
  if (variance < 50.0) {
    std::printf("FAIL: the screenshot is (nearly) blank\n");
    ok = false;
  }
  const std::size_t at = output.find("simulated time ");
  const double t = at == std::string::npos ? 0.0 : std::strtod(output.c_str() + at + 15, nullptr);
  if (!(t > 0.0)) {
    std::printf("FAIL: the simulated time did not advance (no \"simulated time X s\" > 0)\n");
    ok = false;
  }
  if (!realtime && !(t > 0.99 * frames / 60.0 && t < 1.01 * frames / 60.0 + 0.01)) {
    std::printf("FAIL: simulated time %g s, expected %g s (1/60 s per frame)\n", t, frames / 60.0);
    ok = false;
  }
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
