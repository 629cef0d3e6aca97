"""Display geometry: mesh file names, scale factors and colours, attached to bodies.

Meshes are recorded by file name only; they are looked up when a model is
shown, and a model works without them. Other geometry (spheres, bricks...)
and geometry fixed to ground are listed in the warnings.
"""
from __future__ import annotations

from collections import defaultdict

from ...model import GROUND, Mesh


def read_meshes(doc, paths, frames) -> dict[str, list[Mesh]]:
    """The meshes attached to every frame, gathered per body (``{body name: [Mesh, ...]}``)."""
    meshes: dict[str, list[Mesh]] = defaultdict(list)
    for frame_name, element in frames.element.items():
        holder = doc.child(element, "attached_geometry")
        if holder is None:
            continue
        for geom in holder:
            what = f"geometry {paths.path_of(geom)}"
            if geom.tag != "Mesh":
                doc.use_subtree(geom)
                doc.warn(f"{what}: <{geom.tag}> display geometry not imported (only meshes are)")
                continue
            doc.use(geom)
            frame = frames.frame(geom, "socket_frame", what) if geom.find("socket_frame") is not None else frame_name
            body, placement = frames.in_body(frame)
            file = doc.text(geom, "mesh_file", what)
            if body == GROUND:
                doc.warn(f"{what}: mesh {file!r} is fixed to ground; not imported (HybridLab shows no ground meshes)")
                continue
            scale = doc.numbers(geom, "scale_factors", what, 3, [1.0, 1.0, 1.0])
            appearance = doc.child(geom, "Appearance")
            color = None
            if appearance is not None:
                rgb = doc.numbers(appearance, "color", what, 3, None)
                color = None if rgb is None else tuple(float(c) for c in rgb)
            meshes[body].append(Mesh(file, tuple(scale), placement, color))
    return meshes
