#version 330 core
// Depth from the key light (shadow map pass); the bodies' attributes as mesh.vert.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in mat4 aModel;
uniform mat4 uLightViewProj;
void main() { gl_Position = uLightViewProj * (aModel * vec4(aPosition, 1.0)); }
