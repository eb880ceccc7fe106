// libFuzzer target: OBJ text → validated TriMesh. io::Error is the expected outcome of a
// bad file; any other exception, a crash, a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/error.h"
#include "io/obj.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const samara::geometry::TriMesh mesh = samara::io::parseObj(text, "fuzz.obj");
    (void)mesh.numFaces();
  } catch (const samara::io::Error&) {
  }
  return 0;
}
