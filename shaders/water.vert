#version 330 core
// The free water surface: a quad at the water level.
layout(location = 0) in vec3 aPosition;
uniform mat4 uModel;     // unit quad → world
uniform mat4 uViewProj;
out vec3 vWorld;
void main() {
  vWorld = (uModel * vec4(aPosition, 1.0)).xyz;
  gl_Position = uViewProj * vec4(vWorld, 1.0);
}
