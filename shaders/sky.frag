#version 330 core
// A soft vertical gradient behind everything (and a tint over everything underwater).
in vec2 vNdc;
uniform vec3 uTop;     // display RGB
uniform vec3 uBottom;  // display RGB
uniform float uAlpha;  // 1 for the sky; < 1 for the underwater tint over everything
out vec4 fragColor;
void main() {
  float t = clamp(vNdc.y * 0.5 + 0.5, 0.0, 1.0);
  fragColor = vec4(mix(uBottom, uTop, t), uAlpha);
}
