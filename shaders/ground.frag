#version 330 core
// Ground grid: anti-aliased minor and major lines (fwidth), lit and shadowed like the
// bodies, fading into the background with distance.
in vec3 vWorld;
in vec4 vLightClip;

uniform float uMinor;        // minor line spacing, m
uniform float uMajor;        // major line spacing, m
uniform vec3 uFogColor;      // linear RGB of the horizon
uniform float uFadeDistance; // m
uniform vec2 uCenter;        // fade centre (x, z)
// Compiled twice: without SHADOW_PASS the ground, unshadowed; with SHADOW_PASS the shadow
// overlay, drawn only where the shadow map reaches and blended multiplicatively (shadow
// lookups over a whole-screen plane are slow on software rasterisers such as llvmpipe,
// which runs both sides of a branch).

out vec4 fragColor;

#include "lighting.glsl"

float gridLine(vec2 p, float spacing, float width) {
  vec2 q = p / spacing;
  vec2 d = abs(fract(q - 0.5) - 0.5) / fwidth(q);
  return 1.0 - clamp(min(d.x, d.y) / width, 0.0, 1.0);
}

void main() {
  vec2 p = vWorld.xz;
  float minor = gridLine(p, uMinor, 1.0);
  float major = gridLine(p, uMajor, 1.5);
  // Minor lines fade out when they get denser than a few pixels.
  vec2 density = fwidth(p / uMinor);
  minor *= 1.0 - clamp(max(density.x, density.y) * 3.0 - 0.5, 0.0, 1.0);
  vec3 base = vec3(0.72, 0.72, 0.70);
  vec3 albedo = base * (1.0 - 0.18 * minor);
  albedo = mix(albedo, vec3(0.30, 0.32, 0.36), 0.55 * major);
  // The ground's normal is +y: the hemisphere and the lights reduce to constants.
  float keyDiffuse = max(-uLightDir.y, 0.0);
  vec3 ambient = vec3(0.60, 0.68, 0.80) * 0.45;
  vec3 key = vec3(1.0, 0.96, 0.88) * 0.85;
  vec3 unshadowed = ambient + key * keyDiffuse + 0.18 * 0.3;
#if defined(SHADOW_PASS)
  float s = shadowFactor(vLightClip, 0.0008);
  vec3 ratio = (ambient + key * keyDiffuse * s + 0.18 * 0.3) / unshadowed;
  // The frame is gamma encoded: scaling linear light by r scales the output by r^(1/2.2).
  fragColor = vec4(pow(ratio, vec3(1.0 / 2.2)), 1.0);
#else
  vec3 c = albedo * unshadowed;
  float dist = length(vWorld.xz - uCenter);
  float fog = smoothstep(0.35 * uFadeDistance, uFadeDistance, dist);
  c = mix(c, uFogColor, fog);
  fragColor = vec4(toDisplay(c), 1.0);
#endif
}
