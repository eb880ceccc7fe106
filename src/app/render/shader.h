#pragma once
// GLSL programs loaded at run time from the shaders/ directory. A line
// `#include "file.glsl"` is replaced by that file (same directory).
#include <epoxy/gl.h>

#include <glm/glm.hpp>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace samara::app {

/// A missing shader file or a compile/link error; the message names the file.
class ShaderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Program {
 public:
  Program() = default;
  ~Program();
  Program(Program&& o) noexcept;
  Program& operator=(Program&& o) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  /// Compiles and links `dir`/`name`.vert and `dir`/`name`.frag; `defines` (e.g.
  /// "#define SHADOW_PASS 1\n") go right after the #version line. Throws ShaderError.
  static Program load(const std::string& dir, const std::string& name,
                      const std::string& defines = "");

  void use() const { glUseProgram(id_); }
  GLuint id() const { return id_; }
  void set(const char* name, const glm::mat4& m);
  void set(const char* name, const glm::vec3& v);
  void set(const char* name, const glm::vec2& v);
  void set(const char* name, float x);
  void set(const char* name, int x);

 private:
  GLint location(const char* name);

  GLuint id_ = 0;
  std::unordered_map<std::string, GLint> locations_;
};

}  // namespace samara::app
