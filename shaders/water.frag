#version 330 core
// Translucent water surface with a Fresnel-like rim and a faint ripple-free sheen.
in vec3 vWorld;
uniform vec3 uEye;
uniform vec3 uLightDir;
uniform float uFadeDistance;
uniform vec2 uCenter;
out vec4 fragColor;
void main() {
  vec3 V = normalize(uEye - vWorld);
  float cosV = abs(V.y);
  float fresnel = 0.15 + 0.6 * pow(1.0 - cosV, 4.0);
  vec3 deep = vec3(0.05, 0.28, 0.45);
  vec3 sky = vec3(0.65, 0.78, 0.90);
  vec3 H = normalize(-uLightDir + V);
  float spec = pow(max(H.y * sign(V.y), 0.0), 200.0) * 0.6;
  vec3 c = mix(deep, sky, fresnel) + spec;
  float dist = length(vWorld.xz - uCenter);
  float fade = 1.0 - smoothstep(0.35 * uFadeDistance, uFadeDistance, dist);
  fragColor = vec4(pow(c, vec3(1.0 / 2.2)), (0.35 + 0.3 * fresnel) * fade);
}
