#version 330 core
// Trails: COM positions with a per-vertex opacity (older points fade) and colour (display
// RGB, the trail's body); every trail of a kind in one buffer.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in float aAlpha;
layout(location = 2) in vec3 aColor;
uniform mat4 uViewProj;
out float vAlpha;
out vec3 vColor;
void main() {
  vAlpha = aAlpha;
  vColor = aColor;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
