"""OpenSim ScaleTool setup files (.xml) -> :class:`engine.scaling.setup.ScaleSetup`.

File names are resolved against the setup file's folder (OpenSim's ``aPathToSubject``); empty names and
OpenSim's ``Unassigned`` mean "not given". ``<mass>`` -1 (OpenSim's default) means the masses are not
brought to a subject's total; any other mass must be positive. Whether the named input files exist is
checked when they are used (:meth:`ScaleSetup.input_file`), so that a file given on the command line can
stand in for one the setup names.
"""
from __future__ import annotations

from pathlib import Path

from ...errors import DataError
from ...trial.body_measures import MASS_RANGE
from ...scaling.setup import AXES, MANUAL, MEASUREMENTS, BodyScale, ManualScale, Measurement, PlacerSetup, \
    ScalerSetup, ScaleSetup
from .._xml import boolean_of, parse_xml, text_of
from ..setup_xml import parse_number, read_ik_tasks, read_time_range

_NOT_GIVEN = ("", "unassigned")


def read_scale_setup(path) -> ScaleSetup:
    """Read a ScaleTool setup.

    Raises :class:`~engine.errors.DataError` naming the file and element for malformed XML, a missing
    <ScaleTool>, a mass that is zero or negative (other than OpenSim's -1), a measurement without marker
    pairs or bodies, a marker pair that does not name two markers, axes other than X, Y, Z, manual factors
    that are not three positive numbers, or a scaling order other than 'measurements' and 'manualScale'.
    """
    path = Path(path)
    root = parse_xml(path)
    tool = root if root.tag == "ScaleTool" else root.find(".//ScaleTool")
    if tool is None:
        raise DataError("no <ScaleTool> element", element=f"<{root.tag}>", file=path)
    folder = path.resolve().parent
    elements: dict = {}

    def file_of(holder, tag, key, where):
        text = text_of(holder, tag, path, "")
        if text.lower() in _NOT_GIVEN:
            return None
        elements[key] = f"{where}<{tag}>"
        return folder / text

    mass = parse_number(text_of(tool, "mass", path, "-1"), "the mass", "<ScaleTool>/<mass>", path)
    if mass == -1.0:
        mass = None
    elif not MASS_RANGE[0] <= mass <= MASS_RANGE[1]:
        raise DataError(f"the subject's mass must be in kilograms, between {MASS_RANGE[0]:g} and {MASS_RANGE[1]:g} "
                        f"(hybrid analyze --mass's range), got {mass:g}", element="<ScaleTool>/<mass>", file=path)
    maker = tool.find("GenericModelMaker")
    model_file = marker_set_file = None
    if maker is not None:
        model_file = file_of(maker, "model_file", "model_file", "<GenericModelMaker>")
        marker_set_file = file_of(maker, "marker_set_file", "marker_set_file", "<GenericModelMaker>")
    scaler = ScalerSetup(apply=False)
    element = tool.find("ModelScaler")
    if element is not None:
        where = "<ModelScaler>"
        scaler = ScalerSetup(
            apply=boolean_of(element, "apply", path, True),
            order=_order(element, path),
            measurements=tuple(_measurement(m, path) for m in element.iter("Measurement")),
            manual=tuple(_manual(s, path) for s in element.iter("Scale")),
            static_file=file_of(element, "marker_file", "scaler.static_file", where),
            time_range=read_time_range(element, path, where),
            preserve_mass_distribution=boolean_of(element, "preserve_mass_distribution", path, False),
            output_model_file=file_of(element, "output_model_file", "scaler.output_model_file", where),
            output_scale_file=file_of(element, "output_scale_file", "scaler.output_scale_file", where))
    placer = None
    element = tool.find("MarkerPlacer")
    if element is not None:
        where = "<MarkerPlacer>"
        markers, coordinates = read_ik_tasks(element, path)
        placer = PlacerSetup(
            apply=boolean_of(element, "apply", path, True),
            marker_tasks=markers, coordinate_tasks=coordinates,
            static_file=file_of(element, "marker_file", "placer.static_file", where),
            coordinate_file=file_of(element, "coordinate_file", "placer.coordinate_file", where),
            time_range=read_time_range(element, path, where),
            output_motion_file=file_of(element, "output_motion_file", "placer.output_motion_file", where),
            output_model_file=file_of(element, "output_model_file", "placer.output_model_file", where),
            output_marker_file=file_of(element, "output_marker_file", "placer.output_marker_file", where),
            max_marker_movement=parse_number(text_of(element, "max_marker_movement", path, "-1"),
                                             "max_marker_movement", f"{where}<max_marker_movement>", path))
    return ScaleSetup(name=tool.get("name", "").strip() or path.stem, mass=mass, model_file=model_file,
                      marker_set_file=marker_set_file, scaler=scaler, placer=placer, source=str(path),
                      elements=elements)


def _order(element, path) -> tuple:
    words = tuple(text_of(element, "scaling_order", path, f"{MEASUREMENTS} {MANUAL}").split())
    for word in words:
        if word not in (MEASUREMENTS, MANUAL):
            raise DataError(f"unknown step {word!r} (expected '{MEASUREMENTS}' or '{MANUAL}')",
                            element="<ModelScaler>/<scaling_order>", file=path)
    return words


def _measurement(element, path) -> Measurement:
    name = element.get("name", "").strip()
    where = f"<Measurement name={name!r}>"
    pairs = []
    for pair in element.iter("MarkerPair"):
        names = tuple(text_of(pair, "markers", path, "").split())
        if len(names) != 2:
            raise DataError(f"a marker pair must name two markers, got {names!r}", element=f"{where}<MarkerPair>",
                            file=path)
        pairs.append(names)
    bodies = []
    for scale in element.iter("BodyScale"):
        body = scale.get("name", "").strip()
        letters = text_of(scale, "axes", path, "X Y Z").upper().split()
        if not letters or any(a not in AXES for a in letters):
            raise DataError(f"axes must be some of X Y Z, got {' '.join(letters)!r}",
                            element=f"{where}<BodyScale name={body!r}>", file=path)
        bodies.append(BodyScale(body, tuple(AXES.index(a) for a in letters)))
    apply = boolean_of(element, "apply", path, True)
    if apply and (not pairs or not bodies):
        raise DataError("a measurement needs marker pairs and bodies to scale", element=where, file=path)
    return Measurement(name, tuple(pairs), tuple(bodies), apply)


def _manual(element, path) -> ManualScale:
    body = text_of(element, "segment", path)
    where = f"<Scale segment={body!r}>"
    values = [parse_number(t, "a scale factor", where, path) for t in text_of(element, "scales", path).split()]
    if len(values) != 3 or min(values) <= 0:
        raise DataError(f"<scales> must be three positive factors, got {values}", element=where, file=path)
    return ManualScale(body, tuple(values), boolean_of(element, "apply", path, True))
