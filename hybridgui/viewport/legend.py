"""The 3D view's colour legends: a box naming what each colour drawn means (ground reactions measured and estimated,
experimental and model markers, contact candidates, the blade) and colour bars for the muscles' activation and the
blade's colouring when they are drawn coloured. Built from the same ``style`` colours the layers use."""
from __future__ import annotations

from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkRenderingAnnotation import vtkLegendBoxActor, vtkScalarBarActor

from . import style


def colour_bar(renderer, lut, title: str, x: float):
    """A horizontal colour bar of ``lut`` titled ``title`` at the bottom of ``renderer``, from ``x`` (normalised)."""
    bar = vtkScalarBarActor()
    bar.SetLookupTable(lut)
    bar.SetTitle(title)
    bar.SetNumberOfLabels(3)
    bar.SetOrientationToHorizontal()
    bar.SetTextPositionToPrecedeScalarBar()      # the labels under the bar, the title above
    bar.SetLabelFormat("%.3g")
    bar.DrawBackgroundOn()                        # readable over the floor as over the sky
    bar.GetBackgroundProperty().SetColor(*style.BACKGROUND)
    bar.GetBackgroundProperty().SetOpacity(0.7)
    bar.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
    bar.GetPositionCoordinate().SetValue(x, 0.02)
    bar.SetWidth(0.4)
    bar.SetHeight(0.12)
    for text in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        text.SetFontSize(13)
        text.SetBold(False)
        text.SetItalic(False)
        text.SetShadow(False)
        text.SetColor(1.0, 1.0, 1.0)
    bar.UnconstrainedFontSizeOn()
    bar.PickableOff()
    renderer.AddViewProp(bar)
    return bar


class LegendLayer:
    """``entries`` [(text, (r, g, b))] in a box at the top left; ``bars`` the colour bars (title -> actor):
    'muscle activation' when activations are drawn, and the blade's colouring (:meth:`set_blade`)."""

    def __init__(self, renderer, entries, activations: bool):
        self.renderer = renderer
        self.entries = list(entries)
        self.box = vtkLegendBoxActor()
        self.box.SetNumberOfEntries(len(self.entries))
        sphere = vtkSphereSource()
        sphere.Update()
        for i, (text, colour) in enumerate(self.entries):
            self.box.SetEntry(i, sphere.GetOutput(), text, colour)
        self.box.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
        self.box.GetPositionCoordinate().SetValue(0.01, 0.99 - 0.045 * len(self.entries))
        self.box.GetPosition2Coordinate().SetValue(0.5, 0.045 * len(self.entries))
        self.box.BorderOff()
        self.box.UseBackgroundOn()
        self.box.SetBackgroundColor(*style.BACKGROUND)
        self.box.SetBackgroundOpacity(0.7)
        self.box.GetEntryTextProperty().SetColor(1.0, 1.0, 1.0)
        self.box.GetEntryTextProperty().SetShadow(False)
        self.box.PickableOff()
        renderer.AddViewProp(self.box)
        self.bars = {"muscle activation": colour_bar(renderer, style.activation_colours(), "muscle activation", 0.05)} \
            if activations else {}
        self._blade = None
        self.visible = True

    def set_blade(self, lut, title: str | None) -> None:
        """Show the blade's colour bar for ``lut`` titled ``title`` (None: the blade is not coloured)."""
        if self._blade is not None:
            self.renderer.RemoveViewProp(self.bars.pop(self._blade))
            self._blade = None
        if title is not None:
            self.bars[title] = colour_bar(self.renderer, lut, title, 0.55)
            self._blade = title
        self.set_visible(self.visible)

    def show_frame(self, frame: int) -> None:
        """Legends do not move with the frames."""

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.box.SetVisibility(visible and bool(self.entries))
        for bar in self.bars.values():
            bar.SetVisibility(visible)
