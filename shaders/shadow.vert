#version 330 core
// Depth from the key light (shadow map pass).
layout(location = 0) in vec3 aPosition;
uniform mat4 uLightViewProj;
void main() { gl_Position = uLightViewProj * vec4(aPosition, 1.0); }
