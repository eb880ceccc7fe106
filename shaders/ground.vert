#version 330 core
// The ground plane: a large quad at the floor height.
layout(location = 0) in vec3 aPosition;
uniform mat4 uModel;     // unit quad → world
uniform mat4 uViewProj;
uniform mat4 uLightViewProj;
out vec3 vWorld;
out vec4 vLightClip;
void main() {
  vWorld = (uModel * vec4(aPosition, 1.0)).xyz;
  vLightClip = uLightViewProj * vec4(vWorld, 1.0);
  gl_Position = uViewProj * vec4(vWorld, 1.0);
}
