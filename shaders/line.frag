#version 330 core
in float vAlpha;
in vec3 vColor;  // display RGB
out vec4 fragColor;
void main() { fragColor = vec4(vColor, vAlpha); }
