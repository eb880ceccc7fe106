#version 330 core
// Bodies: a rigid body's mesh in its body frame placed by its instance's model matrix (one
// instanced draw per shared mesh), or a shape-changing body's world vertices (model matrix
// the identity, attributes constant for the draw). src/app/render/body_batches.h.
layout(location = 0) in vec3 aPosition;  // body frame (or world), m
layout(location = 1) in mat4 aModel;     // body frame → world (locations 1-4)
layout(location = 5) in vec4 aFront;     // front colour (linear RGB), body index
layout(location = 6) in vec3 aBack;      // back colour (linear RGB)

uniform mat4 uViewProj;
uniform mat4 uLightViewProj;
uniform float uSelected;  // highlighted body index (-1 = none)

out vec3 vWorld;
out vec4 vLightClip;
flat out vec3 vColorFront;
flat out vec3 vColorBack;
flat out float vHighlight;

void main() {
  vec4 world = aModel * vec4(aPosition, 1.0);
  vWorld = world.xyz;
  vLightClip = uLightViewProj * world;
  vColorFront = aFront.rgb;
  vColorBack = aBack;
  vHighlight = aFront.a == uSelected ? 1.0 : 0.0;
  gl_Position = uViewProj * world;
}
