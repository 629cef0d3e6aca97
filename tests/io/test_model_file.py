"""Model files: exact round trip of every part, units, a clear error for every invalid input, safe writes."""
from __future__ import annotations

import copy
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from engine.errors import DataError, ModelError
from engine.io import atomic
from engine.io.model_file import load_model, save_model
from engine.io.osim import read_osim
from engine.model import (Body, Composition, Constant, ContactPoint, Coordinate, Frame, FreeJoint, GeneralJoint,
                          Linear, Marker, Material, Mesh, Model, Multiplier, NaturalCubicSpline, PiecewiseLinear,
                          Polynomial, PrismaticJoint, RevoluteJoint, Rod, RodSegment, Section, SimmSpline,
                          SphericalJoint, TransformAxis, UniversalJoint, WeldJoint)
from engine.model.muscles import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap,
                                  WrapCylinder, WrapEllipsoid, WrapSphere, WrapTorus)
from engine.spatial import SE3, body_fixed_xyz

DOCS = Path(__file__).resolve().parents[2] / "docs" / "model-format.md"


# ------------------------------------------------------------------ the model with every kind of part
def unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def placement(rng, scale=0.1) -> SE3:
    return SE3(body_fixed_xyz(rng.uniform(-np.pi, np.pi, 3)), rng.normal(size=3) * scale)


def inertia(rng, moments) -> np.ndarray:
    R = body_fixed_xyz(rng.uniform(-np.pi, np.pi, 3))
    return R @ np.diag(moments) @ R.T


def full_model() -> Model:
    """Every joint type, every function type, a coupled coordinate, a three-segment rod with two
    materials and a body at its tip, points on bodies and on the rod, frames, meshes, every wrap
    object, muscles with conditional and moving points and path wraps, and metadata."""
    rng = np.random.default_rng(7)
    deg = np.pi / 180
    bodies = [
        Body("pelvis", 11.8, rng.normal(size=3) * 0.05, inertia(rng, [0.10, 0.09, 0.06]),
             meshes=(Mesh("pelvis.vtp"), Mesh("sacrum.vtp", (1.1, 0.9, 1.0), placement(rng), (0.8, 0.7, 0.6)))),
        Body("thigh_r", 9.3, [0.0, -0.17, 0.0], inertia(rng, [0.13, 0.034, 0.14])),
        Body("shank_r", 3.7, [0.0, -0.18, 0.0], [0.05, 0.005, 0.051, 0.0, 0.0, 0.0]),
        Body("socket_r", 0.6, [0.0, -0.05, 0.0], [1e-3, 8e-4, 1e-3]),
        Body("patella_r", 0.08, [0.0, 0.0, 0.0], [2e-5, 2e-5, 2e-5]),
        Body("toe_r", 0.05, [0.01, 0.0, 0.0], [1e-5, 1.2e-5, 1.5e-5]),
        Body("arm", 2.1, [0.0, -0.15, 0.0], inertia(rng, [0.012, 0.004, 0.013])),
        Body("hand", 0.45, [0.0, -0.05, 0.0], [8e-4, 2e-4, 9e-4]),
        Body("slider", 0.3, [0.0, 0.0, 0.0], [1e-4, 1e-4, 1e-4]),
        Body("base", 0.0, massless=True),
    ]
    frames = [
        Frame("socket_mount", "shank_r", placement(rng)),
        Frame("blade_mount", "socket_mount", SE3(np.eye(3), [0.0, -0.08, 0.0])),
        Frame("tip_frame", "blade", placement(rng, 0.01)),
    ]
    knee_beta_coupler = Composition(Linear(0.5, 0.01), Polynomial((0.02, -0.1, 0.3, 0.0)))
    knee = GeneralJoint(
        "knee_r", "thigh_r", "shank_r", placement(rng), placement(rng),
        coordinates=(Coordinate("knee_angle_r", range=(-2.09, 0.17), default=-0.3, clamped=True),
                     Coordinate("knee_beta_r", coupled_to="knee_angle_r", coupler=knee_beta_coupler)),
        rotations=(TransformAxis((-0.2, 0.9, 0.4), "knee_angle_r", Linear(-1.0, 0.02)),  # see hip_r
                   TransformAxis(unit(rng.normal(size=3)), "knee_beta_r",
                                 Multiplier(SimmSpline([-2.0, -1.0, 0.0, 0.5, 1.0], [0.1, 0.05, 0.0, 0.02, 0.03]),
                                            0.7)),
                   TransformAxis((1.0, 0.0, 0.0), None, Constant(0.05))),
        translations=(TransformAxis((1.0, 0.0, 0.0), "knee_angle_r",
                                    NaturalCubicSpline([-2.09, -1.2, -0.5, 0.0, 0.17],
                                                       [-0.003, 0.0018, 0.0041, 0.0, -0.001])),
                      TransformAxis((0.0, 1.0, 0.0), "knee_angle_r", Polynomial((1e-3, 2e-3, -0.4))),
                      TransformAxis(unit([0.1, 0.0, 1.0]), "knee_angle_r",
                                    PiecewiseLinear([-2.0, 0.0, 0.2], [0.001, 0.0, -0.002]))))
    joints = [
        FreeJoint("ground_pelvis", "ground", "pelvis", SE3(np.eye(3), [0.0, 0.95, 0.0])),
        RevoluteJoint("hip_r", "pelvis", "thigh_r", placement(rng), placement(rng),
                      (Coordinate("hip_flexion_r", range=(-0.52, 2.09), default=0.1, locked=True),),
                      axis=(1.0, 1.0, 0.0)),  # the class normalises it; normalising that again moves it an ulp
        knee,
        WeldJoint("socket_weld", "socket_mount", "socket_r"),
        UniversalJoint("patellofemoral_r", "shank_r", "patella_r", placement(rng), SE3(),
                       (Coordinate("pat_a", range=(-np.inf, 0.5)), Coordinate("pat_b", range=(-0.5, np.inf))),
                       axis1=unit(rng.normal(size=3)), axis2=(0.0, 0.0, 1.0)),
        WeldJoint("toe_weld", "blade", "toe_r", SE3(np.eye(3), [0.005, 0.0, 0.0])),
        SphericalJoint("shoulder", "pelvis", "arm", placement(rng), placement(rng)),
        RevoluteJoint("elbow", "arm", "hand", coordinates=(Coordinate("elbow_flexion", default=20 * deg),)),
        PrismaticJoint("rail", "pelvis", "slider", placement(rng), SE3(),
                       (Coordinate("rail_x", "translational", range=(-0.1, 0.25), default=0.02),),
                       axis=unit(rng.normal(size=3))),
        WeldJoint("base_weld", "ground", "base"),
    ]
    carbon = Material("carbon", 7.0e10, 5.0e9, 1600.0, 2.0e5, 1.0e5)
    steel = Material("steel", 2.1e11, 8.1e10, 7850.0)
    segments = (
        RodSegment(0.08, Section.rectangle(0.06, 0.012), steel),
        RodSegment(0.12, Section.rectangle(0.055, 0.010), carbon, ("kx", "ky", "kz", "ex"),
                   (0.1, -0.2, 8.5, 1.0, 0.0, 0.0), ((-0.5, 0.5), (-np.inf, np.inf), (-20.0, 30.0), (0.9, 1.1))),
        RodSegment(0.15, Section(4.5e-4, 4.1e-9, 1.2e-7, 1.5e-8), carbon, ("ky", "ez"),
                   (0.0, 0.0, 12.0, 1.0, 0.0, 0.01)),
    )
    rods = [Rod("blade", "blade_mount", segments, placement(rng), quadrature=4)]
    markers = [
        Marker("RASI", "pelvis", [0.02, 0.03, 0.12]),
        Marker("RKNE", "thigh_r", [0.0, -0.4, 0.05], fixed=True),
        Marker("BLADE_MID", "blade", [0.0, 0.01, 0.0], s=0.17),
        Marker("BLADE_TIP", "tip_frame"),
    ]
    contacts = [
        ContactPoint("blade_c1", "blade", [0.0, -0.006, 0.0], s=0.25, group="blade"),
        ContactPoint("blade_c2", "blade", s=0.35, group="blade"),
        ContactPoint("heel", "hand", [0.0, -0.08, 0.0]),
    ]
    wraps = [
        WrapCylinder("knee_cyl", "thigh_r", placement(rng), "-y", radius=0.025, length=0.1),
        WrapSphere("hip_sphere", "pelvis", SE3(), radius=0.04, active=False),
        WrapEllipsoid("thorax", "pelvis", placement(rng), "+x", dimensions=(0.1, 0.15, 0.2)),
        WrapTorus("ring", "shank_r", placement(rng), inner_radius=0.01, outer_radius=0.03),
    ]
    vasti = Muscle(
        "vasti_r",
        GeometryPath((PathPoint("origin", "thigh_r", [0.03, -0.2, 0.03]),
                      ConditionalPathPoint("via", "thigh_r", [0.035, -0.4, 0.0], coordinate="knee_angle_r",
                                           range=(-2.6, -1.4)),
                      MovingPathPoint("moving", "shank_r", [0.0, 0.0, 0.0],
                                      x=("knee_angle_r", NaturalCubicSpline([-2.0, -1.0, 0.0], [0.01, 0.03, 0.04])),
                                      y=("knee_angle_r", Linear(0.01, -0.02))),
                      PathPoint("insertion", "patella_r", [0.0, 0.01, 0.0])),
                     (PathWrap("knee_cyl"), PathWrap("ring", "midpoint", (2, 3)))),
        "millard2012", 5000.0, 0.09, 0.15, 0.06, activation_time_constant=0.01,
        parameters={"fiber_damping": 0.1, "curves": {"active_force_length": {"min_norm_length": 0.44}},
                    "flags": [True, False], "note": None, "count": 3})
    blade_muscle = Muscle(
        "blade_strap",
        GeometryPath((PathPoint("a", "socket_r", [0.0, -0.02, 0.01]),
                      PathPoint("b", "blade", [0.0, 0.01, 0.0], s=0.1))),
        "rigid", 100.0, 0.05, 0.2)
    metadata = {"source": "synthetic test model", "subject": {"name": "Zoë", "mass_kg": 70, "height_m": 1.82},
                "date": "2024-05-01", "looks_like_a_number": "1e3", "flags": [True, None, 1.5, "yes"],
                "nested": [{"a": 1}, [2.5, float("inf")]]}
    return Model("every_part", bodies, joints, rods, frames, markers, contacts, [vasti, blade_muscle], wraps,
                 gravity=(0.0, -9.81, 0.3), metadata=metadata)


def test_the_full_model_has_every_kind_of_part():
    m = full_model()
    functions = set()

    def collect(f):
        functions.add(type(f))
        for inner in (getattr(f, "function", None), getattr(f, "outer", None), getattr(f, "inner", None)):
            if inner is not None:
                collect(inner)

    for j in m.joints:
        for ax in getattr(j, "axes", ()):
            collect(ax.function)
        for c in j.coordinates:
            if c.coupler is not None:
                collect(c.coupler)
    assert {type(j) for j in m.joints} == {FreeJoint, SphericalJoint, RevoluteJoint, PrismaticJoint, UniversalJoint,
                                           WeldJoint, GeneralJoint}
    assert functions == {Constant, Linear, Polynomial, NaturalCubicSpline, SimmSpline, PiecewiseLinear, Multiplier,
                         Composition}
    assert {type(w) for w in m.wrap_objects} == {WrapCylinder, WrapSphere, WrapEllipsoid, WrapTorus}
    assert {type(p) for mu in m.muscles for p in mu.path.points} == {PathPoint, ConditionalPathPoint, MovingPathPoint}
    assert len({sg.material.name for sg in m.rods[0].segments}) == 2


# ------------------------------------------------------------------ round trip
def test_round_trip_is_exact_and_saving_again_gives_the_same_bytes(tmp_path):
    model = full_model()
    first = tmp_path / "model.yaml"
    save_model(model, first)
    loaded = load_model(first)
    for part in ("bodies", "frames", "joints", "rods", "markers", "contacts", "wrap_objects", "muscles", "metadata"):
        assert getattr(loaded, part) == getattr(model, part), part
    assert np.array_equal(loaded.gravity, model.gravity)
    assert loaded == model
    again = tmp_path / "again.yaml"
    save_model(loaded, again)
    assert again.read_bytes() == first.read_bytes()


@pytest.mark.parametrize("osim", ["arm26/arm26.osim", "gait10dof18musc/subject01.osim",
                                  "gait2354/subject01_simbody.osim"])
def test_imported_opensim_models_round_trip(test_data, tmp_path, osim):
    """Real models: splines, couplers, wraps, conditional and moving points, import warnings in metadata,
    and unit axes that the model classes would move by an ulp if they normalised them again."""
    model = read_osim(test_data / "opensim" / osim)
    path = tmp_path / "model.yaml"
    save_model(model, path)
    assert load_model(path) == model


def test_saved_file_is_si_with_full_precision_and_infinite_ranges(tmp_path):
    path = tmp_path / "model.yaml"
    save_model(full_model(), path)
    text = path.read_text()
    document = yaml.safe_load(text)
    assert (document["format"], document["version"]) == ("hybridlab-model", 1)
    assert document["units"] == {"length": "m", "mass": "kg", "angle": "rad", "modulus": "Pa", "density": "kg/m^3"}
    assert "[-.inf, 0.5]" in text and "[-0.5, .inf]" in text
    assert "'1e3'" in text and "'2024-05-01'" in text  # text that YAML could read as a number or date is quoted


# ------------------------------------------------------------------ units
L, M, A, E, D = 1e-3, 1e-3, math.pi / 180, 1e9, 1e3  # SI size of mm, g, deg, GPa, g/cm^3


def in_units(document: dict, kinds: dict) -> dict:
    """The SI document rewritten in mm, g, deg, GPa and g/cm^3, field by field as docs/model-format.md says."""
    def div(v, f):
        return [div(x, f) for x in v] if isinstance(v, list) else v / f

    def placement(p):
        if p and "translation" in p:
            p["translation"] = div(p["translation"], L)

    def coord(name):  # SI size of one unit of a coordinate's value in the file
        return {"rotational": A, "translational": L}[kinds[name]] if name else 1.0

    def function(fn, a, b):  # the file's function g(x) = f(x * a) / b
        t = fn["type"]
        if t == "constant":
            fn["value"] /= b
        elif t == "linear":
            fn["slope"] *= a / b
            fn["intercept"] /= b
        elif t == "polynomial":
            n = len(fn["coefficients"])
            fn["coefficients"] = [c * a ** (n - 1 - i) / b for i, c in enumerate(fn["coefficients"])]
        elif t == "multiplier":
            function(fn["function"], a, b)
        elif t == "composition":
            function(fn["outer"], 1.0, b)
            function(fn["inner"], a, 1.0)
        else:
            fn["x"], fn["y"] = div(fn["x"], a), div(fn["y"], b)

    doc = document
    doc["units"] = {"length": "mm", "mass": "g", "angle": "deg", "modulus": "GPa", "density": "g/cm^3"}
    doc["gravity"] = div(doc["gravity"], L)
    for b in doc["bodies"]:
        b["mass"] /= M
        b["com"] = div(b.get("com", [0.0] * 3), L)
        b["inertia"] = div(b.get("inertia", [0.0] * 6), M * L * L)
        for mesh in b.get("meshes", []):
            placement(mesh.get("placement"))
    for fr in doc["frames"]:
        placement(fr.get("placement"))
    for j in doc["joints"]:
        placement(j.get("parent_offset"))
        placement(j.get("child_offset"))
        for c in j.get("coordinates", []):
            f = coord(c["name"])
            c["range"] = div(c.get("range", [-math.inf, math.inf]), f)
            c["default"] = c.get("default", 0.0) / f
            if "coupler" in c:
                function(c["coupler"], coord(c["coupled_to"]), f)
        for key, f in (("rotations", A), ("translations", L)):
            for ax in j.get(key, []):
                function(ax.setdefault("function", {"type": "linear", "slope": 1.0, "intercept": 0.0}),
                         coord(ax.get("coordinate")), f)
    for mat in doc["materials"]:
        for key in ("youngs_modulus", "shear_modulus", "extensional_viscosity", "shear_viscosity"):
            if key in mat:
                mat[key] /= E
        mat["density"] /= D
    for rod in doc["rods"]:
        placement(rod.get("offset"))
        for sg in rod["segments"]:
            sg["length"] /= L
            sec = sg["section"]
            sec["area"] /= L ** 2
            for key in ("second_moment_y", "second_moment_z", "torsion_constant"):
                sec[key] /= L ** 4
            for key in ("width", "thickness"):
                if key in sec:
                    sec[key] /= L
            modes = sg.get("free_modes", ["kx", "ky", "kz"])
            sg["rest_strain"] = [v * L if i < 3 else v for i, v in enumerate(sg.get("rest_strain", [0, 0, 0, 1, 0, 0]))]
            if "strain_range" in sg:
                sg["strain_range"] = [[v * L for v in r] if m.startswith("k") else r
                                      for r, m in zip(sg["strain_range"], modes)]
    for p in doc["markers"] + doc["contacts"]:
        p["offset"] = div(p.get("offset", [0.0] * 3), L)
        if "s" in p:
            p["s"] /= L
    for w in doc["wrap_objects"]:
        placement(w.get("placement"))
        for key in ("radius", "length", "inner_radius", "outer_radius", "dimensions"):
            if key in w:
                w[key] = div(w[key], L)
    for mu in doc["muscles"]:
        mu["optimal_fiber_length"] /= L
        mu["tendon_slack_length"] /= L
        if "pennation_angle" in mu:
            mu["pennation_angle"] /= A
        for p in mu["path"]["points"]:
            p["location"] = div(p.get("location", [0.0] * 3), L)
            if "s" in p:
                p["s"] /= L
            if p.get("type") == "conditional":
                p["range"] = div(p["range"], coord(p["coordinate"]))
            for axis in ("x", "y", "z"):
                if axis in p:
                    function(p[axis]["function"], coord(p[axis]["coordinate"]), L)
    return doc


def assert_close(a, b, where="document"):
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for k in a:
            assert_close(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and math.isfinite(a):
        assert abs(a - b) <= 1e-12 * max(abs(a), abs(b)), f"{where}: {a} != {b}"
    else:
        assert a == b, where


def test_non_si_units_load_equal_to_si(tmp_path):
    model = full_model()
    si = tmp_path / "si.yaml"
    save_model(model, si)
    kinds = {c.name: c.kind for c in model.all_coordinates}
    expected = yaml.safe_load(si.read_text())
    del expected["metadata"]["looks_like_a_number"]  # plain pyyaml would write the text '1e3' unquoted
    other = tmp_path / "mm_g_deg_gpa.yaml"
    other.write_text(yaml.safe_dump(in_units(yaml.safe_load(si.read_text()) | {"metadata": expected["metadata"]},
                                             kinds), sort_keys=False))
    assert "units:\n  length: mm\n  mass: g\n  angle: deg\n  modulus: GPa" in other.read_text()
    loaded = load_model(other)
    resaved = tmp_path / "resaved.yaml"
    save_model(loaded, resaved)
    assert_close(yaml.safe_load(resaved.read_text()), expected)
    knee = loaded.joint("knee_r")
    assert math.isclose(knee.coordinates[0].range[0], -2.09, rel_tol=1e-12)
    assert math.isclose(loaded.rods[0].segments[1].rest_strain[2], 8.5, rel_tol=1e-12)


def test_documented_example_loads(tmp_path):
    example = re.search(r"```yaml\n(.*?)```", DOCS.read_text(), re.S).group(1)
    path = tmp_path / "example.yaml"
    path.write_text(example)
    model = load_model(path)
    assert model.body("shank").mass == pytest.approx(3.5)
    assert model.coordinate("knee_angle").range[0] == pytest.approx(-math.radians(120))
    assert model.rods[0].segments[0].length == pytest.approx(0.12)
    assert model.rods[0].segments[0].material.youngs_modulus == pytest.approx(70e9)
    assert model.rods[0].segments[1].rest_strain[2] == pytest.approx(8.0)


# ------------------------------------------------------------------ invalid input
def small_document() -> dict:
    """A valid small model: a thigh on a knee, a rod on the shank with a body at its tip."""
    return {
        "format": "hybridlab-model", "version": 1,
        "units": {"length": "m", "mass": "kg", "angle": "rad", "modulus": "Pa", "density": "kg/m^3"},
        "name": "small",
        "bodies": [{"name": "thigh", "mass": 9.0, "inertia": [0.1, 0.03, 0.1, 0.0, 0.0, 0.0]},
                   {"name": "shank", "mass": 3.5, "com": [0.0, -0.2, 0.0], "inertia": [0.05, 0.005, 0.05, 0, 0, 0]},
                   {"name": "toe", "mass": 0.1, "inertia": [1e-5, 1e-5, 1e-5, 0, 0, 0]}],
        "frames": [{"name": "mount", "parent": "shank", "placement": {"translation": [0.0, -0.3, 0.0]}}],
        "joints": [{"name": "hip", "type": "free", "parent": "ground", "child": "thigh"},
                   {"name": "knee", "type": "revolute", "parent": "thigh", "child": "shank",
                    "parent_offset": {"translation": [0.0, -0.4, 0.0]},
                    "coordinates": [{"name": "knee_angle", "range": [-2.0, 0.1], "clamped": True}]},
                   {"name": "toe_weld", "type": "weld", "parent": "blade", "child": "toe"}],
        "materials": [{"name": "carbon", "youngs_modulus": 7e10, "shear_modulus": 5e9, "density": 1600.0}],
        "rods": [{"name": "blade", "parent": "mount", "segments": [
            {"length": 0.1, "material": "carbon", "section": {"area": 6e-4, "second_moment_y": 5e-9,
                                                               "second_moment_z": 1.8e-7, "torsion_constant": 2e-8}},
            {"length": 0.2, "material": "carbon", "section": {"area": 6e-4, "second_moment_y": 5e-9,
                                                               "second_moment_z": 1.8e-7, "torsion_constant": 2e-8},
             "rest_strain": [0.0, 0.0, 8.0, 1.0, 0.0, 0.0]}]}],
        "markers": [{"name": "KNEE", "parent": "thigh", "offset": [0.0, -0.4, 0.05]},
                    {"name": "TIP", "parent": "blade", "s": 0.3}],
    }


def set_path(doc, path, value):
    *head, last = path
    for key in head:
        doc = doc[key]
    if value is DELETE:
        del doc[last]
    elif isinstance(doc, list) and last == len(doc):
        doc.append(value)
    else:
        doc[last] = value


DELETE = object()
REVOLUTE_SWAP = [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]  # a reflection, not a rotation

INVALID = {
    # name: (changes as (path, value), element named, phrase of the problem)
    "unknown parent": ([(("joints", 1, "parent"), "femur")], "joint 'knee'",
                       "'femur', which is not ground, a body, a frame or a rod"),
    "cycle of joints": ([(("joints", 0, "parent"), "shank")], "joint 'hip'", "parents form a cycle"),
    "cycle of frames": ([(("frames",), [{"name": "mount", "parent": "f2"}, {"name": "f2", "parent": "mount"}])],
                        "frame 'mount'", "frames form a cycle"),
    "zero mass": ([(("bodies", 1, "mass"), 0.0)], "body 'shank'", "mass must be positive"),
    "negative mass": ([(("bodies", 1, "mass"), -3.5)], "body 'shank'", "mass must be positive"),
    "absurd mass": ([(("bodies", 1, "mass"), 1e308)], "body 'shank'", "mass of 1e+308 kg is beyond any body"),
    "inertia not positive definite": ([(("bodies", 1, "inertia"), [0.05, 0.005, -0.05, 0, 0, 0])], "body 'shank'",
                                      "not positive definite"),
    "inertia triangle inequality": ([(("bodies", 1, "inertia"), [0.01, 0.01, 0.05, 0, 0, 0])], "body 'shank'",
                                    "triangle inequality"),
    "zero-length segment": ([(("rods", 0, "segments", 1, "length"), 0.0)], "rod 'blade', segment 2",
                            "length must be positive"),
    "NaN mass": ([(("bodies", 0, "mass"), float("nan"))], "body 'thigh'", "mass is NaN"),
    "NaN in a vector": ([(("bodies", 1, "com"), [0.0, float("nan"), 0.0])], "body 'shank'", "com is NaN"),
    "NaN in a range": ([(("joints", 1, "coordinates", 0, "range"), [float("nan"), 1.0])], "coordinate 'knee_angle'",
                       "range is NaN"),
    "NaN in metadata": ([(("metadata",), {"height": float("nan")})], "top level", "metadata.height is NaN"),
    "duplicate body": ([(("bodies", 2, "name"), "shank")], "body 'shank'", "defined twice"),
    "duplicate material": ([(("materials", 1), {"name": "carbon", "youngs_modulus": 1e9, "shear_modulus": 1e9,
                                                "density": 1.0})], "material 'carbon'", "defined twice"),
    "duplicate coordinate": ([(("joints", 0), {"name": "hip", "type": "revolute", "parent": "ground", "child": "thigh",
                                               "coordinates": [{"name": "knee_angle"}]})],
                             "coordinate 'knee_angle'", "defined twice"),
    "unknown length unit": ([(("units", "length"), "inch")], "units", "unknown length unit 'inch'"),
    "unknown modulus unit": ([(("units", "modulus"), "psi")], "units", "unknown modulus unit 'psi'"),
    "missing unit": ([(("units", "angle"), DELETE)], "units", "missing the required field 'angle'"),
    "missing units": ([(("units",), DELETE)], "top level", "missing the required field 'units'"),
    "unknown joint type": ([(("joints", 1, "type"), "hinge")], "joint 'knee'", "unknown joint type 'hinge'"),
    "missing mass": ([(("bodies", 1, "mass"), DELETE)], "body 'shank'", "missing the required field 'mass'"),
    "missing name": ([(("bodies", 1, "name"), DELETE)], "body 2", "missing the required field 'name'"),
    "text for a number": ([(("bodies", 1, "mass"), "heavy")], "body 'shank'", "mass must be a number, got 'heavy'"),
    "true for a number": ([(("bodies", 1, "mass"), True)], "body 'shank'", "mass must be a number"),
    "number for a name": ([(("joints", 1, "parent"), 3)], "joint 'knee'", "parent must be text"),
    "text for a flag": ([(("joints", 1, "coordinates", 0, "locked"), "yes please")], "coordinate 'knee_angle'",
                        "locked must be true or false"),
    "mapping for a list": ([(("bodies",), {"name": "thigh"})], "top level", "bodies must be a list"),
    "short vector": ([(("bodies", 1, "com"), [0.0, 0.1])], "body 'shank'", "com must be a list of 3 numbers"),
    "unknown field": ([(("bodies", 1, "colour"), "red")], "body 'shank'", "unknown field 'colour'"),
    "misspelt field": ([(("bodies", 1, "mas"), 3.5), (("bodies", 1, "mass"), DELETE)], "body 'shank'",
                       "missing the required field 'mass' (is 'mas' a misspelling?)"),
    "unknown top-level field": ([(("bodys",), [])], "top level", "unknown field 'bodys' (did you mean 'bodies'?)"),
    "unknown placement field": ([(("frames", 0, "placement", "translatoin"), [0, 0, 0])], "frame 'mount', placement",
                                "unknown field 'translatoin'"),
    "improper rotation": ([(("frames", 0, "placement", "rotation"), REVOLUTE_SWAP)], "frame 'mount', placement",
                          "not a proper rotation matrix"),
    "unknown material": ([(("rods", 0, "segments", 0, "material"), "titanium")], "rod 'blade', segment 1",
                         "material 'titanium', which is not among the materials"),
    "unused material": ([(("materials", 1), {"name": "steel", "youngs_modulus": 2e11, "shear_modulus": 8e10,
                                             "density": 7850.0})], "material 'steel'", "no rod segment uses it"),
    "non-positive modulus": ([(("materials", 0, "shear_modulus"), 0.0)], "material 'carbon'",
                             "shear_modulus must be positive"),
    "unknown strain mode": ([(("rods", 0, "segments", 0, "free_modes"), ["kx", "bend"])], "rod 'blade', segment 1",
                            "free_modes must be a list of names among"),
    "strain range count": ([(("rods", 0, "segments", 0, "strain_range"), [[-1.0, 1.0]])], "rod 'blade', segment 1",
                           "one [low, high] per free mode (3), got 1"),
    "arclength beyond the rod": ([(("markers", 1, "s"), 0.5)], "marker 'TIP'", "outside rod 'blade'"),
    "unknown function type": ([(("joints", 1, "coordinates", 0, "coupled_to"), "x"),
                               (("joints", 1, "coordinates", 0, "coupler"), {"type": "spline"})],
                              "coordinate 'knee_angle', coupler", "unknown function type 'spline'"),
    "knots not increasing": ([(("joints", 1), {
        "name": "knee", "type": "general", "parent": "thigh", "child": "shank",
        "coordinates": [{"name": "knee_angle"}],
        "rotations": [{"axis": [0, 0, 1], "coordinate": "knee_angle",
                       "function": {"type": "simm_spline", "x": [0.0, 2.0, 1.0], "y": [0.0, 1.0, 2.0]}},
                      {"axis": [1, 0, 0], "function": {"type": "constant", "value": 0.0}},
                      {"axis": [0, 1, 0], "function": {"type": "constant", "value": 0.0}}],
        "translations": [{"axis": [1, 0, 0], "function": {"type": "constant", "value": 0.0}},
                         {"axis": [0, 1, 0], "function": {"type": "constant", "value": 0.0}}]})],
        "joint 'knee', rotations 1, function", "x values must be strictly increasing"),
    "general joint with two translations": ([(("joints", 1), {
        "name": "knee", "type": "general", "parent": "thigh", "child": "shank",
        "rotations": [{"axis": [0, 0, 1]}, {"axis": [1, 0, 0]}, {"axis": [0, 1, 0]}],
        "translations": [{"axis": [1, 0, 0]}, {"axis": [0, 1, 0]}]})], "joint 'knee'",
        "translations must be three TransformAxis"),
    "zero axis": ([(("joints", 1, "axis"), [0.0, 0.0, 0.0])], "joint 'knee'", "axis must be a non-zero direction"),
    "unknown wrap object type": ([(("wrap_objects",), [{"name": "w", "type": "cone", "body": "thigh"}])],
                                 "wrap object 'w'", "unknown wrap object type 'cone'"),
    "muscle on unknown coordinate": ([(("muscles",), [{
        "name": "rf", "model": "rigid", "max_isometric_force": 100.0, "optimal_fiber_length": 0.1,
        "tendon_slack_length": 0.3, "path": {"points": [
            {"name": "o", "parent": "thigh"},
            {"name": "v", "type": "conditional", "parent": "thigh", "coordinate": "hip_angle", "range": [-1, 0]},
            {"name": "i", "parent": "shank"}]}}])], "muscle 'rf'", "'hip_angle', which is not a coordinate"),
    "unknown path point type": ([(("muscles",), [{
        "name": "rf", "model": "rigid", "max_isometric_force": 100.0, "optimal_fiber_length": 0.1,
        "tendon_slack_length": 0.3, "path": {"points": [{"name": "o", "parent": "thigh", "type": "via"},
                                                        {"name": "i", "parent": "shank"}]}}])],
        "muscle 'rf', path point 'o'", "unknown path point type 'via'"),
    "unknown version": ([(("version",), 2)], "version", "format version 2, but this HybridLab reads only version 1"),
    "not a model file": ([(("format",), "opensim")], "format", "is not a HybridLab model file"),
}


def expect_error(path: Path, element: str, phrase: str) -> ModelError:
    with pytest.raises(ModelError) as info:
        load_model(path)
    message = str(info.value)
    assert path.name in message and element in message and phrase in message, message
    return info.value


@pytest.mark.parametrize("case", INVALID)
def test_invalid_input_names_file_element_and_problem(tmp_path, case):
    changes, element, phrase = INVALID[case]
    doc = small_document()
    load_model(_write(tmp_path / "valid.yaml", doc))
    for path, value in changes:
        set_path(doc, path, value)
    expect_error(_write(tmp_path / "bad_model.yaml", doc), element, phrase)


def _write(path: Path, doc: dict) -> Path:
    path.write_text(yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False))
    return path


def test_every_mapping_rejects_an_unknown_field(tmp_path):
    source = tmp_path / "model.yaml"
    save_model(full_model(), source)
    document = yaml.safe_load(source.read_text())

    def mappings(node, path=(), pattern=()):
        """Each mapping's path, and its place in the schema: list indices left out, types (of joints,
        functions, wrap objects, path points) kept."""
        if isinstance(node, dict) and not {"metadata", "parameters"} & set(path):
            yield path, pattern + (node.get("type"),)
        for key, child in node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ():
            yield from mappings(child, path + (key,), pattern + (None if isinstance(key, int) else key,))

    by_pattern = dict((pattern, path) for path, pattern in reversed(list(mappings(document))))  # one per place
    assert len(by_pattern) > 50
    for path in by_pattern.values():
        doc = copy.deepcopy(document)
        set_path(doc, path + ("zzz_typo",), 1.0)
        expect_error(_write(tmp_path / "typo.yaml", doc), "", "unknown field 'zzz_typo'")


def test_yaml_syntax_error_gives_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("format: hybridlab-model\nversion: 1\nname: [unclosed\nbodies: []\n")
    expect_error(path, "line 4", "is not valid YAML")


def test_key_given_twice_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "twice.yaml"
    text = yaml.safe_dump(small_document(), sort_keys=False).replace("  mass: 3.5\n", "  mass: 3.5\n  mass: 35.0\n")
    path.write_text(text)
    line = text.splitlines().index("  mass: 35.0") + 1
    expect_error(path, f"line {line}", "the key 'mass' is given twice")


def test_missing_and_empty_files(tmp_path):
    expect_error(tmp_path / "absent.yaml", "", "cannot be read")
    (tmp_path / "empty.yaml").write_text("")
    expect_error(tmp_path / "empty.yaml", "format", "is not a HybridLab model file")


def test_hand_written_conveniences(tmp_path):
    """Exponent numbers without a dot are numbers, dates stay text, integers are accepted as numbers."""
    doc = small_document()
    doc["metadata"] = {"date": "DATE"}
    text = yaml.safe_dump(doc, sort_keys=False).replace("mass: 3.5", "mass: 35e-1").replace("DATE", "2024-05-01")
    path = tmp_path / "hand.yaml"
    path.write_text(text)
    model = load_model(path)
    assert model.body("shank").mass == 3.5
    assert model.metadata == {"date": "2024-05-01"}
    assert model.rods[0].segments[0].material.youngs_modulus == 7e10


# ------------------------------------------------------------------ writing
def test_unserialisable_model_is_rejected_and_leaves_the_file_untouched(tmp_path):
    path = tmp_path / "model.yaml"
    save_model(full_model(), path)
    before = path.read_bytes()
    bad = full_model().replace(metadata={"trial": {"offsets": np.zeros(3)}})
    with pytest.raises(ModelError) as info:
        save_model(bad, path)
    assert all(s in str(info.value) for s in ("model.yaml", "model 'every_part'", "metadata.trial.offsets",
                                              "cannot store exactly"))
    with pytest.raises(ModelError, match="tuple"):
        save_model(full_model().replace(metadata={"pair": (1, 2)}), path)
    assert path.read_bytes() == before


def test_two_materials_with_one_name_cannot_be_written(tmp_path):
    model = full_model()
    rod = model.rods[0]
    other = RodSegment(0.1, rod.segments[0].section, Material("carbon", 1e9, 1e9, 1000.0))
    model = model.replace(rods=[Rod(rod.name, rod.parent, rod.segments + (other,), rod.offset, rod.quadrature)])
    with pytest.raises(ModelError, match="material 'carbon': names two different materials"):
        save_model(model, tmp_path / "model.yaml")
    assert not (tmp_path / "model.yaml").exists()


def test_failed_writes_leave_the_existing_file_untouched(tmp_path, monkeypatch):
    path = tmp_path / "model.yaml"
    save_model(full_model(), path)
    before = path.read_bytes()
    with pytest.raises(DataError, match="does not exist"):
        save_model(full_model(), tmp_path / "missing" / "model.yaml")

    def fail(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", fail)
    with pytest.raises(OSError, match="No space left"):
        save_model(full_model().replace(name="changed"), path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.yaml"]


def test_libyaml_s_emitter_writes_the_documents_of_pyyaml_s_own(test_data, monkeypatch):
    """Files are written with libyaml's emitter when PyYAML has it (4x faster), else with the pure-Python one, and the
    two write the same documents: the same text, byte for byte, for the model with every kind of part and an imported
    OpenSim model; for scalars that need quoting or escaping the same data loaded back (libyaml escapes characters
    beyond 16 bits, an emoji as "\\U0001F600", where the pure-Python emitter writes them as they are), equal to what
    was written. U+0085 is the exception: the pure-Python emitter folds it into a space, libyaml keeps it."""
    from engine.io import yaml_documents
    from engine.io.model_file import SI_UNITS, write_model

    libyaml = getattr(yaml, "CSafeDumper", None)
    assert issubclass(yaml_documents._Dumper, libyaml or yaml.SafeDumper)
    monkeypatch.delattr(yaml, "CSafeDumper", raising=False)
    fallback = yaml_documents._dumper()
    assert issubclass(fallback, yaml.SafeDumper) and (libyaml is None or not issubclass(fallback, libyaml))
    awkward = {"a: b": "x: y", "degrees": "45° – ünïcode", "lines": "one\ntwo", "empty": "", "lead": " space",
               "nan": math.nan, "inf": -math.inf, "tiny": 1e-300, "text_true": "true", "none": None, "text_num": "1.5",
               "mixed": [1, "two", 3.0, None, "#hash"], "nested": [{"k": [1, 2]}], "tab": "a\tb", "quotes": "it's \"q\"",
               "long": "word " * 100, "exponent": "1e5", "emoji 😀": "emoji 😀", "astral": ["𝔘", "a😀b"],
               "separators": "a\u2028b\u2029c", "bom": "\ufeffx", "nul": "a\x00b"}
    options = dict(sort_keys=False, allow_unicode=True, width=1 << 16)
    for body in ({"units": dict(SI_UNITS), **write_model(full_model())},
                 {"units": dict(SI_UNITS), **write_model(read_osim(test_data / "opensim" / "arm26" / "arm26.osim"))}):
        document = {"format": "f", "version": 1, **body}
        assert yaml.dump(document, Dumper=yaml_documents._Dumper, **options) == \
            yaml.dump(document, Dumper=fallback, **options)
    written = yaml.dump(awkward, Dumper=yaml_documents._Dumper, **options)
    for text in (written, yaml.dump(awkward, Dumper=fallback, **options)):
        loaded = yaml.safe_load(text)
        assert math.isnan(loaded.pop("nan"))
        assert loaded == {k: v for k, v in awkward.items() if k != "nan"}
    if libyaml is not None:
        assert "\\U0001F600" in written          # escaped: the same data from a different text
    nel = {"name": "a\x85b"}
    assert yaml.safe_load(yaml.dump(nel, Dumper=yaml_documents._Dumper, **options)) == \
        (nel if libyaml is not None else {"name": "a b"})
    assert yaml.safe_load(yaml.dump(nel, Dumper=fallback, **options)) == {"name": "a b"}


@pytest.mark.parametrize("text, expected", [
    ("# a comment\nformat: hybridlab-model\nversion: 1\n", "hybridlab-model"),
    ("version: 1\nbodies: {format: inner}\nformat: hybridlab-study\n", "hybridlab-study"),   # top level only
    ("name: x\nformat: [hybridlab-model]\n", None),
    ("- format: hybridlab-model\n", None),
    ("just text\n", None),
    ("", None),
    ("name: x\n", None),
])
def test_a_documents_format_is_read_from_its_top_level_header(tmp_path, text, expected):
    from engine.io.yaml_documents import document_format
    path = tmp_path / "f.yaml"
    path.write_text(text)
    assert document_format(path) == expected
    if isinstance(yaml.safe_load(text), dict):        # the whole document, read by PyYAML, agrees
        read = yaml.safe_load(text).get("format")
        assert document_format(path) == (read if isinstance(read, str) else None)


def test_a_documents_format_of_a_file_not_yaml_is_an_error_naming_it(tmp_path):
    from engine.io.yaml_documents import document_format
    path = tmp_path / "f.yaml"
    path.write_text("name: [unclosed\nformat: hybridlab-model\n")
    with pytest.raises(ModelError) as err:
        document_format(path)
    assert err.value.file == str(path) and err.value.problem.startswith("is not valid YAML")
