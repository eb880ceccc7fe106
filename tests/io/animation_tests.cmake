# Animation loaders (OBJ sequences, glTF skins, procedural keyframes) and the glTF builder
# (io/gltf_builder.h), whose files the skin loader reads back; glTF buffers and `--set` text
# (inputs the fuzzers in fuzz/ reach).

add_executable(test_animation_io io/test_animation_io.cpp io/test_gltf_builder.cpp
  io/test_gltf_buffers.cpp io/test_set_utf8.cpp)
target_link_libraries(test_animation_io
  PRIVATE samara_io samara_test_main nlohmann_json::nlohmann_json samara_warnings)
target_compile_definitions(test_animation_io PRIVATE SAMARA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
catch_discover_tests(test_animation_io TEST_PREFIX "io/")
