#version 330 core
// A picture on a vertical plane (the fluid reference's vorticity): the unit x-z quad
// [-1, 1]² mapped to the rectangle uLowerLeft + [0, uSize.x] × [0, uSize.y] at z = uLowerLeft.z.
layout(location = 0) in vec3 aPosition;
uniform vec3 uLowerLeft;  // world, m
uniform vec2 uSize;       // m
uniform mat4 uViewProj;
out vec2 vUv;
void main() {
  vec2 s = 0.5 * (aPosition.xz + 1.0);
  vUv = vec2(s.x, 1.0 - s.y);  // the picture's rows run top to bottom
  vec3 world = uLowerLeft + vec3(s.x * uSize.x, s.y * uSize.y, 0.0);
  gl_Position = uViewProj * vec4(world, 1.0);
}
