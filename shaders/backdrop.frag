#version 330 core
// The picture as it is (already sRGB), unlit.
in vec2 vUv;
uniform sampler2D uPicture;
out vec4 fragColor;
void main() {
  fragColor = vec4(texture(uPicture, vUv).rgb, 1.0);
}
