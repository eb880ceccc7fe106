#version 330 core
in float vAlpha;
uniform vec3 uColor;  // display RGB
out vec4 fragColor;
void main() { fragColor = vec4(uColor, vAlpha); }
