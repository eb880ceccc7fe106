#include "app/render/shader.h"

#include <filesystem>
#include <fstream>
#include <glm/gtc/type_ptr.hpp>
#include <sstream>
#include <vector>

namespace samara::app {

namespace fs = std::filesystem;

namespace {

std::string readSource(const fs::path& path, int depth = 0) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ShaderError("shader file missing or unreadable: " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (depth > 4) return text;
  // Textual #include "file" (same directory).
  std::string out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t p = line.find("#include");
    if (p != std::string::npos && line.find_first_not_of(" \t") == p) {
      const std::size_t a = line.find('"', p);
      const std::size_t b = a == std::string::npos ? a : line.find('"', a + 1);
      if (b != std::string::npos) {
        out += readSource(path.parent_path() / line.substr(a + 1, b - a - 1), depth + 1);
        out += "\n";
        continue;
      }
    }
    out += line;
    out += "\n";
  }
  return out;
}

GLuint compile(GLenum type, const fs::path& path, const std::string& defines) {
  std::string src = readSource(path);
  if (!defines.empty()) {
    const std::size_t eol = src.find('\n');
    src.insert(eol == std::string::npos ? src.size() : eol + 1, defines);
  }
  const GLuint s = glCreateShader(type);
  const char* p = src.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<std::size_t>(std::max(len, 1)), '\0');
    glGetShaderInfoLog(s, len, nullptr, log.data());
    glDeleteShader(s);
    throw ShaderError(path.string() + ": compile error:\n" + log);
  }
  return s;
}

}  // namespace

Program::~Program() {
  if (id_) glDeleteProgram(id_);
}

Program::Program(Program&& o) noexcept : id_(o.id_), locations_(std::move(o.locations_)) {
  o.id_ = 0;
}

Program& Program::operator=(Program&& o) noexcept {
  if (this != &o) {
    if (id_) glDeleteProgram(id_);
    id_ = o.id_;
    locations_ = std::move(o.locations_);
    o.id_ = 0;
  }
  return *this;
}

Program Program::load(const std::string& dir, const std::string& name, const std::string& defines) {
  const fs::path base(dir);
  const GLuint vs = compile(GL_VERTEX_SHADER, base / (name + ".vert"), defines);
  GLuint fs_ = 0;
  try {
    fs_ = compile(GL_FRAGMENT_SHADER, base / (name + ".frag"), defines);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  Program p;
  p.id_ = glCreateProgram();
  glAttachShader(p.id_, vs);
  glAttachShader(p.id_, fs_);
  glLinkProgram(p.id_);
  glDeleteShader(vs);
  glDeleteShader(fs_);
  GLint ok = 0;
  glGetProgramiv(p.id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetProgramiv(p.id_, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<std::size_t>(std::max(len, 1)), '\0');
    glGetProgramInfoLog(p.id_, len, nullptr, log.data());
    throw ShaderError((base / name).string() + ".{vert,frag}: link error:\n" + log);
  }
  return p;
}

GLint Program::location(const char* name) {
  auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  const GLint loc = glGetUniformLocation(id_, name);
  locations_.emplace(name, loc);
  return loc;
}

void Program::set(const char* name, const glm::mat4& m) {
  glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(m));
}
void Program::set(const char* name, const glm::vec3& v) {
  glUniform3fv(location(name), 1, glm::value_ptr(v));
}
void Program::set(const char* name, const glm::vec2& v) {
  glUniform2fv(location(name), 1, glm::value_ptr(v));
}
void Program::set(const char* name, float x) { glUniform1f(location(name), x); }
void Program::set(const char* name, int x) { glUniform1i(location(name), x); }

}  // namespace samara::app
