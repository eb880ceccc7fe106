#pragma once
// Primitive meshes centred on the origin (body coordinates, metres).
#include "geometry/tri_mesh.h"

namespace samara::geometry {

/// Icosphere: icosahedron subdivided `subdivisions` times (20·4^s faces), radius r.
TriMesh makeSphere(double radius, int subdivisions);
/// Geodesic sphere of frequency ν: each icosahedron face split into ν² triangles (20 ν²
/// faces: 2 000 for ν = 10), vertices on the sphere of radius r.
TriMesh makeGeodesicSphere(double radius, int frequency);
/// Icosphere scaled to radii (a, b, c) along x, y, z.
TriMesh makeEllipsoid(const Vec3& radii, int subdivisions);
/// Box with edge lengths (a, b, c) along x, y, z; each face split in 2 triangles per cell of
/// a `cells`×`cells` grid (cells ≥ 1).
TriMesh makeBox(const Vec3& size, int cells = 1);
/// Closed cylinder along the body y axis (radius r, length l), `segments` around, with
/// capped ends. `rings` subdivides the side along its length.
TriMesh makeCylinder(double radius, double length, int segments, int rings = 1);
/// Closed thin disk (coin): a cylinder along y with the given thickness.
TriMesh makeDisk(double radius, double thickness, int segments);
/// Open sheet in the body x-z plane, size a (x) × b (z), m×n cells, 2 triangles per cell,
/// normals along +y.
TriMesh makePlate(double sizeX, double sizeZ, int cellsX, int cellsZ);

}  // namespace samara::geometry
