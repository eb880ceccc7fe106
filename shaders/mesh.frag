#version 330 core
// Bodies: flat-shaded faces (normals from screen-space derivatives), two-sided with a
// different colour on each side of a sheet so its orientation reads at a glance. Ghost
// bodies (a comparison run) are drawn translucent: uAlpha < 1, a little more opaque where
// the surface is seen edge-on so the outline reads.
in vec3 vWorld;
in vec4 vLightClip;

flat in vec3 vColorFront;  // linear RGB, the side the mesh normals point to
flat in vec3 vColorBack;   // linear RGB, the other side
flat in float vHighlight;  // 0..1, selected body

uniform float uAlpha;  // 1 = opaque; ghost bodies ~0.35

out vec4 fragColor;

#include "lighting.glsl"

void main() {
  vec3 n = normalize(cross(dFdx(vWorld), dFdy(vWorld)));
  if (dot(n, uEye - vWorld) < 0.0) n = -n;  // face the viewer (two-sided)
  vec3 albedo = gl_FrontFacing ? vColorFront : vColorBack;
  float cosL = max(dot(n, -uLightDir), 0.0);
  float bias = 0.0015 + 0.004 * (1.0 - cosL);
  float s = shadowFactor(vLightClip, bias);
  vec3 c = shade(albedo, n, vWorld, s, 48.0);
  c += vHighlight * 0.06;
  float a = 1.0;
  if (uAlpha < 1.0) {
    float edge = 1.0 - abs(dot(n, normalize(uEye - vWorld)));
    a = clamp(uAlpha * (0.8 + 0.8 * edge * edge), 0.0, 1.0);
  }
  fragColor = vec4(toDisplay(c), a);
}
