#include "io/csv.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "io/text_format.h"

namespace samara::io {

const char* const kCsvHeader =
    "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,Lx,Ly,Lz,Px,Py,Pz,fall_speed,spin_rate,"
    "kinetic_energy,newton_iters";

namespace {
constexpr std::size_t kFlushBytes = 1 << 16;
}

bool isFormulaLike(const std::string& s) {
  if (s.empty() || std::strchr("=+-@\t\r", s[0]) == nullptr) return false;
  char* end = nullptr;
  (void)std::strtod(s.c_str(), &end);
  return *end != '\0';  // "-3" and "+1e5" are numbers, "=1+2" and "-x" are not
}

std::string csvField(const std::string& s) {
  const bool formula = isFormulaLike(s);
  if (!formula && s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = formula ? "\"'" : "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void CsvWriter::writeHeader() {
  buffer_ += kCsvHeader;
  buffer_ += '\n';
}

void CsvWriter::number(double x) {
  buffer_ += ',';
  appendNumber(&buffer_, x);  // %.17g, -0 as 0
}

void CsvWriter::writeRow(double t, const std::string& body, const core::BodyDiagnostics& d) {
  appendNumber(&buffer_, t);
  buffer_ += ',';
  buffer_ += csvField(body);
  for (int k = 0; k < 3; ++k) number(d.com[k]);
  number(d.q.w());
  number(d.q.x());
  number(d.q.y());
  number(d.q.z());
  for (int k = 0; k < 3; ++k) number(d.velocity[k]);
  for (int k = 0; k < 3; ++k) number(d.omega[k]);
  for (int k = 0; k < 3; ++k) number(d.angularMomentum[k]);
  for (int k = 0; k < 3; ++k) number(d.linearMomentum[k]);
  number(d.fallSpeed);
  number(d.spinRate);
  number(d.kineticEnergy);
  buffer_ += ',';
  buffer_ += std::to_string(d.newtonIterations);
  buffer_ += '\n';
  if (buffer_.size() >= kFlushBytes) flush();
}

void CsvWriter::writeSample(const core::World& world) {
  for (int i = 0; i < world.numBodies(); ++i) {
    writeRow(world.time(), world.bodyDef(i).name, world.diagnostics(i));
  }
}

void CsvWriter::flush() {
  if (buffer_.empty()) return;
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

}  // namespace samara::io
