# Dear ImGui 1.86 from Debian's libimgui-dev: a static library that already contains the
# GLFW and OpenGL3 backends (headers in /usr/include/imgui and .../backends). It is built
# against Debian's libstb (stb_truetype, stb_rect_pack: -lstb); the OpenGL3 backend loads GL
# itself (dlopen of libGL), the GLFW backend needs GLFW.
if(NOT TARGET imgui::imgui)
  find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui REQUIRED)
  find_library(IMGUI_LIBRARY NAMES libimgui.a imgui REQUIRED)
  find_library(IMGUI_STB_LIBRARY NAMES stb REQUIRED)
  find_package(glfw3 3.3 REQUIRED)
  add_library(imgui::imgui STATIC IMPORTED GLOBAL)
  set_target_properties(imgui::imgui PROPERTIES
    IMPORTED_LOCATION "${IMGUI_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${IMGUI_INCLUDE_DIR};${IMGUI_INCLUDE_DIR}/backends"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${IMGUI_INCLUDE_DIR};${IMGUI_INCLUDE_DIR}/backends"
    INTERFACE_LINK_LIBRARIES "glfw;${IMGUI_STB_LIBRARY};${CMAKE_DL_LIBS}")
endif()
