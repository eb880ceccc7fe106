// Shared lighting (prepended to the fragment shaders that need it): a sky/ground
// hemisphere, a key light with a soft (PCF) shadow map and a weak unshadowed fill light.
uniform vec3 uLightDir;        // direction the key light travels (world, unit)
uniform vec3 uEye;             // camera position (world)
uniform sampler2DShadow uShadowMap;
uniform float uShadowTexel;    // 1 / shadow map size
uniform float uShadowStrength; // 0 = no shadows

float shadowFactor(vec4 lightClip, float bias) {
  if (uShadowStrength <= 0.0) return 1.0;
  vec3 p = lightClip.xyz / lightClip.w * 0.5 + 0.5;
  if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
  // 4×4 percentage-closer filter over hardware-filtered (2×2) compares, taps 1.5 texels
  // apart: a soft edge about 7 texels wide for 16 lookups.
  float sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      vec2 o = (vec2(i, j) - 1.5) * uShadowTexel * 1.5;
      sum += texture(uShadowMap, vec3(p.xy + o, p.z - bias));
    }
  }
  return mix(1.0, sum / 16.0, uShadowStrength);
}

vec3 shade(vec3 albedo, vec3 n, vec3 worldPos, float shadow, float shininess) {
  vec3 L = -uLightDir;
  vec3 V = normalize(uEye - worldPos);
  vec3 sky = vec3(0.60, 0.68, 0.80);
  vec3 ground = vec3(0.32, 0.30, 0.27);
  vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y) * 0.45;
  float diff = max(dot(n, L), 0.0);
  vec3 H = normalize(L + V);
  float spec = pow(max(dot(n, H), 0.0), shininess) * 0.25 * step(0.0, dot(n, L));
  vec3 fillDir = normalize(vec3(0.6, 0.3, 0.7));
  float fill = max(dot(n, fillDir), 0.0) * 0.18;
  vec3 key = vec3(1.0, 0.96, 0.88) * 0.85;
  return albedo * (ambient + key * diff * shadow + fill) + key * spec * shadow;
}

vec3 toDisplay(vec3 linear) { return pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)); }
