// Model assembly (contiguous groups) and the OBJ text writer.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "assetgen.h"

namespace samara::assetgen {

const Group& Model::group(const std::string& groupName) const {
  for (const Group& g : groups) {
    if (g.name == groupName) return g;
  }
  throw std::out_of_range("model '" + name + "' has no group '" + groupName + "'");
}

ModelBuilder::ModelBuilder(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {}

void ModelBuilder::add(const std::string& group, const geometry::TriMesh& part) {
  const auto it = std::find(order_.begin(), order_.end(), group);
  if (it == order_.end()) {
    order_.push_back(group);
    parts_.push_back({part});
  } else {
    parts_[static_cast<size_t>(it - order_.begin())].push_back(part);
  }
}

Model ModelBuilder::finish() const {
  Model m;
  m.name = name_;
  m.description = description_;
  for (size_t g = 0; g < order_.size(); ++g) {
    Group grp;
    grp.name = order_[g];
    grp.firstFace = m.mesh.numFaces();
    const int firstVertex = m.mesh.numVertices();
    for (const geometry::TriMesh& part : parts_[g]) geometry::appendMesh(&m.mesh, part);
    grp.numFaces = m.mesh.numFaces() - grp.firstFace;
    for (int v = firstVertex; v < m.mesh.numVertices(); ++v) grp.vertices.push_back(v);
    m.groups.push_back(std::move(grp));
  }
  return m;
}

std::string formatObj(const Model& model, const std::vector<std::string>& header) {
  std::string out;
  out.reserve(static_cast<size_t>(model.mesh.numVertices()) * 40 +
              static_cast<size_t>(model.mesh.numFaces()) * 24);
  for (const std::string& line : header) out += "# " + line + "\n";
  char buf[128];
  for (int i = 0; i < model.mesh.numVertices(); ++i) {
    std::snprintf(buf, sizeof buf, "v %.9g %.9g %.9g\n", model.mesh.V(i, 0), model.mesh.V(i, 1),
                  model.mesh.V(i, 2));
    out += buf;
  }
  for (const Group& g : model.groups) {
    out += "g " + g.name + "\n";
    for (int f = g.firstFace; f < g.firstFace + g.numFaces; ++f) {
      std::snprintf(buf, sizeof buf, "f %d %d %d\n", model.mesh.F(f, 0) + 1, model.mesh.F(f, 1) + 1,
                    model.mesh.F(f, 2) + 1);
      out += buf;
    }
  }
  return out;
}

}  // namespace samara::assetgen
