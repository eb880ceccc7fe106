#version 330 core
// Bodies: world-space positions uploaded every frame from the simulation snapshot.
layout(location = 0) in vec3 aPosition;  // world, m

uniform mat4 uViewProj;
uniform mat4 uLightViewProj;

out vec3 vWorld;
out vec4 vLightClip;

void main() {
  vWorld = aPosition;
  vLightClip = uLightViewProj * vec4(aPosition, 1.0);
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
