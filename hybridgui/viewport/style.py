"""Colours and sizes of the 3D scene (RGB in 0-1), and the colour maps of activations and blade bending."""
from __future__ import annotations

from vtkmodules.vtkCommonCore import vtkLookupTable
from vtkmodules.vtkRenderingCore import vtkLight

BACKGROUND = (0.20, 0.23, 0.28)    # one colour: a gradient costs more than the whole scene in software rendering
BONE = (0.91, 0.87, 0.78)
BLADE = (0.16, 0.17, 0.19)
FLOOR = (0.80, 0.81, 0.83)
GRID = (0.62, 0.64, 0.67)
AXES = (0.85, 0.85, 0.85)
PLATE = (0.60, 0.66, 0.73)
PLATE_EDGE = (0.22, 0.36, 0.55)
MEASURED = (0.72, 0.52, 1.00)     # violet: green is low activation, blue left, red right
ESTIMATED = (0.98, 0.55, 0.10)
EXPERIMENTAL_MARKER = (0.25, 0.55, 1.00)
MODEL_MARKER = (1.00, 0.35, 0.75)
RESIDUAL = (1.00, 0.90, 0.20)
FLAGGED_MARKER = (0.95, 0.10, 0.10)     # a marker sample the robust loss of IK down-weighted
MUSCLE_IDLE = (0.62, 0.25, 0.25)
CONTACT = (0.95, 0.95, 0.95)
HIGHLIGHT = (1.00, 1.00, 0.30)
DEVICE = (0.55, 0.62, 0.70)     # a device of a simulation (the lift's board, a bed, a sling)
DEVICE_OPACITY = 0.4
SKIN = (0.85, 0.72, 0.62)       # skin where nothing presses

MARKER_RADIUS = 0.009       # m
CONTACT_RADIUS = 0.006      # m
MUSCLE_WIDTH = 4.0          # px
NEWTONS_PER_METRE = 1000.0  # GRF arrows: 1 m per 1000 N


def activation_colours() -> vtkLookupTable:
    """Activation 0 -> green, 0.5 -> yellow, 1 -> red (the seed's Fig. 16)."""
    lut = vtkLookupTable()
    lut.SetNumberOfTableValues(256)
    lut.SetTableRange(0.0, 1.0)
    for i in range(256):
        x = i / 255.0
        red, green = (2.0 * x, 1.0) if x < 0.5 else (1.0, 2.0 * (1.0 - x))
        lut.SetTableValue(i, 0.15 + 0.85 * red, 0.15 + 0.75 * green, 0.15, 1.0)
    lut.SetNanColor(*MUSCLE_IDLE, 1.0)
    lut.Build()
    return lut


def bending_colours(high: float) -> vtkLookupTable:
    """Blade bending from 0 (dark blue) to ``high`` (red), through cyan, green and yellow."""
    lut = vtkLookupTable()
    lut.SetNumberOfTableValues(256)
    lut.SetTableRange(0.0, max(high, 1e-12))
    lut.SetHueRange(0.66, 0.0)
    lut.SetSaturationRange(0.85, 0.85)
    lut.SetValueRange(0.9, 0.9)
    lut.Build()
    return lut


def pressure_colours(high: float) -> vtkLookupTable:
    """Contact pressure from 0 (the skin's colour) to ``high`` (red), through yellow: unloaded skin stays skin; above
    ``high`` crimson."""
    lut = vtkLookupTable()
    lut.SetNumberOfTableValues(256)
    lut.SetTableRange(0.0, max(high, 1e-12))
    for i in range(256):
        x = i / 255.0
        if x < 0.5:
            r, g, b = (SKIN[k] + 2.0 * x * (c - SKIN[k]) for k, c in enumerate((1.0, 0.85, 0.1)))
        else:
            r, g, b = 1.0, 0.85 * (2.0 - 2.0 * x) + 0.1 * (2.0 * x - 1.0), 0.1
        lut.SetTableValue(i, r, g, b, 1.0)
    lut.SetUseAboveRangeColor(True)         # above ``high``: dark red, with its own swatch on the colour bar
    lut.SetAboveRangeColor(0.55, 0.0, 0.25, 1.0)
    lut.Build()
    return lut


def lights() -> list:
    """A key light above and to the side of the camera, and a softer headlight: two lights keep software
    rendering (no GPU) fast while still modelling the shapes."""
    key = vtkLight()
    key.SetLightTypeToCameraLight()
    key.SetPosition(0.6, 1.0, 1.0)
    key.SetFocalPoint(0.0, 0.0, 0.0)
    key.SetIntensity(0.8)
    head = vtkLight()
    head.SetLightTypeToHeadlight()
    head.SetIntensity(0.45)
    return [key, head]
