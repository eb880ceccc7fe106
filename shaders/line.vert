#version 330 core
// Trails: COM positions with a per-vertex opacity (older points fade).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in float aAlpha;
uniform mat4 uViewProj;
out float vAlpha;
void main() {
  vAlpha = aAlpha;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
