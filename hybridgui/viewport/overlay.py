"""The 3D view's fixed annotations (the colour legend, the colour bars) drawn from a picture of them: they are
rendered once into an image by a renderer of their own in an off-screen window, and each frame draws that picture
over the scene: as one textured 2D actor in the scene (a view on screen), or painted by Qt over the frame read from
an off-screen view (where Qt's blending costs a tenth of software OpenGL's). Software OpenGL spent 3-4 ms a frame
drawing them from their text and shapes, though they do not change while the frames are scrubbed; the picture is
taken again only when one of them, or the view's size or DPI, changed. Where OpenGL gives the picture's window no
alpha planes (its picture would be opaque and black out the view), the annotations are drawn in the view's own window
as before, over the scene every frame, and the log says so once."""
from __future__ import annotations

import logging

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkUnsignedCharArray
from vtkmodules.vtkCommonDataModel import vtkImageData, vtkPolyData
from vtkmodules.vtkRenderingCore import (vtkPolyDataMapper2D, vtkRenderer, vtkRenderWindow, vtkTexture,
                                         vtkTexturedActor2D)

from .vtk_util import cells, points, scalars

TILE = 32
"""px: the picture is drawn in square tiles of this side, only those where an annotation is (the rest of the view
is not blended)."""


def _straight_alpha(rgba: np.ndarray) -> np.ndarray:
    """Straight (not premultiplied) RGBA of ``rgba`` (..., 4) uint8 rendered over a transparent background: OpenGL's
    blending left the colours multiplied by their coverage, and the texture is blended again by its alpha."""
    alpha = rgba[..., 3:4].astype(float)
    colour = np.where(alpha > 0, rgba[..., :3] * (255.0 / np.maximum(alpha, 1.0)), 0.0)
    return np.concatenate([np.clip(np.rint(colour), 0, 255), alpha], axis=-1).astype(np.uint8)


LOG = logging.getLogger(__name__)


def transparent(premultiplied: np.ndarray) -> bool:
    """Whether the picture's RGBA bytes (flat, 4 a pixel) hold a fully transparent pixel, as the background where no
    annotation is (not with a window without alpha planes: it reads every pixel back opaque)."""
    return bool((premultiplied[3::4] == 0).any())


def tiles(alpha: np.ndarray, tile: int = TILE) -> list[tuple[int, int, int, int]]:
    """``(x0, y0, x1, y1)`` pixel bounds (ends excluded) of the ``tile``-pixel squares of ``alpha`` (rows, columns)
    holding a pixel that is not fully transparent."""
    h, w = alpha.shape
    out = []
    for y0 in range(0, h, tile):
        band = alpha[y0:y0 + tile]
        for x0 in range(0, w, tile):
            if band[:, x0:x0 + tile].any():
                out.append((x0, y0, min(x0 + tile, w), min(y0 + tile, h)))
    return out


class Overlay:
    """``renderer`` holds the annotations (add them to it, not to the scene's renderer); ``actor`` draws their
    picture in the scene (added to ``scene_renderer``) unless the view paints it itself (:meth:`paint_over_frames`).
    :meth:`update` before each render of the view's window takes the picture again when it is out of date;
    ``pictures`` counts the pictures taken. ``in_window``: no pictures (no alpha planes), ``renderer`` drawn as a layer
    of the view's window."""

    def __init__(self, scene_renderer):
        self.renderer = vtkRenderer()
        self.renderer.SetBackground(0.0, 0.0, 0.0)
        self.renderer.SetBackgroundAlpha(0.0)
        self.renderer.InteractiveOff()
        self._window = None
        self._pixels = vtkUnsignedCharArray()
        self.texture = vtkTexture()
        self.texture.InterpolateOff()            # texels map one to one on pixels
        self.texture.EdgeClampOn()
        self.polydata = vtkPolyData()
        mapper = vtkPolyDataMapper2D()
        mapper.SetInputData(self.polydata)
        mapper.ScalarVisibilityOff()
        self.actor = vtkTexturedActor2D()
        self.actor.SetMapper(mapper)
        self.actor.SetTexture(self.texture)
        self.actor.PickableOff()
        self.scene_renderer = scene_renderer
        scene_renderer.AddViewProp(self.actor)
        self.in_scene = True
        self.image = QImage()        # the picture, top row first, premultiplied alpha (when not in the scene)
        self._key = None
        self.pictures = 0
        self.in_window = False

    def paint_over_frames(self) -> None:
        """The view paints :attr:`image` over its frames itself: the actor leaves the scene."""
        self.in_scene = False
        self.scene_renderer.RemoveViewProp(self.actor)
        self._key = None

    def clear(self) -> None:
        """Remove every annotation (the scene is built anew; its renderer's props were removed, this actor's too)."""
        self.renderer.RemoveAllViewProps()
        if self.in_scene:
            self.scene_renderer.AddViewProp(self.actor)

    def _state(self, size, dpi: int) -> tuple:
        """What the picture depends on: the size, the DPI (the text's size in pixels) and each annotation's
        modification time and visibility (a colour bar's also its lookup table's, a text's or colour bar's also its
        text properties')."""
        props = self.renderer.GetViewProps()
        state = [tuple(size), dpi]
        for i in range(props.GetNumberOfItems()):
            prop = props.GetItemAsObject(i)
            lut = prop.GetLookupTable() if hasattr(prop, "GetLookupTable") else None
            texts = [getattr(prop, f"Get{part}TextProperty")() for part in ("Title", "Label", "Annotation", "Entry", "")
                     if hasattr(prop, f"Get{part}TextProperty")]
            state.append((prop.GetAddressAsString("vtkProp"), prop.GetMTime(), prop.GetVisibility(),
                          lut.GetMTime() if lut is not None else 0,
                          tuple(text.GetMTime() if text is not None else 0 for text in texts)))
        return tuple(state)

    def update(self, window) -> None:
        """Take the picture again if the annotations or the size (w, h px) or DPI of the view's ``window`` (a
        vtkRenderWindow, about to render) changed since the last."""
        if self.in_window:
            return
        size, dpi = window.GetSize(), window.GetDPI()
        state = self._state(size, dpi)
        if state == self._key:
            return
        w, h = size
        props = self.renderer.GetViewProps()
        visible = any(props.GetItemAsObject(i).GetVisibility() for i in range(props.GetNumberOfItems()))
        if not visible or w < 1 or h < 1:
            self.actor.SetVisibility(False)
            self.image = QImage()
            self._key = state
            return
        if self._window is None:
            self._window = vtkRenderWindow()
            self._window.SetOffScreenRendering(1)
            self._window.SetMultiSamples(0)
            self._window.SetAlphaBitPlanes(1)
            self._window.AddRenderer(self.renderer)
        self._window.SetSize(w, h)
        self._window.SetDPI(dpi)
        self._window.Render()
        self.pictures += 1
        self._key = self._state(size, dpi)          # as after rendering (a first render updates some of them)
        self._window.GetRGBACharPixelData(0, 0, w - 1, h - 1, 0, self._pixels, 0)
        premultiplied = vtk_to_numpy(self._pixels)
        if self.pictures == 1 and not transparent(premultiplied):
            self._draw_in(window)
            return
        if not self.in_scene:
            self.image = QImage(premultiplied.data, w, h, 4 * w, QImage.Format.Format_RGBA8888_Premultiplied) \
                .flipped(Qt.Orientation.Vertical).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
            return
        rgba = _straight_alpha(premultiplied.reshape(h, w, 4))
        image = vtkImageData()
        image.SetDimensions(w, h, 1)
        image.GetPointData().SetScalars(numpy_to_vtk(rgba.reshape(-1, 4), deep=True))
        self.texture.SetInputData(image)
        self._set_tiles(tiles(rgba[..., 3]), w, h)
        self.actor.SetVisibility(True)

    def _set_tiles(self, boxes, w: int, h: int) -> None:
        """One quad per tile in view pixels, with the texture coordinates of the same pixels."""
        corners = np.array([(x, y) for x0, y0, x1, y1 in boxes for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))],
                           float).reshape(-1, 2)
        self.polydata.SetPoints(points(np.column_stack([corners, np.zeros(len(corners))])))
        self.polydata.SetPolys(cells(np.arange(len(corners)), [4] * len(boxes)))
        tcoords = scalars(corners / (w, h), "tcoords")
        self.polydata.GetPointData().SetTCoords(tcoords)
        self.polydata.Modified()

    def _draw_in(self, window) -> None:
        """No alpha planes: the annotations drawn by :attr:`renderer` as a layer over the scene in the view's
        ``window``, every frame, and no picture."""
        LOG.warning("OpenGL gave the 3D view's legend picture no alpha channel: the legend and colour bars are drawn "
                    "over the scene every frame instead (slower)")
        self._window.RemoveRenderer(self.renderer)
        self._window.Finalize()
        self._window = None
        self.in_window = True
        self.actor.SetVisibility(False)
        self.image = QImage()
        self.renderer.SetLayer(1)
        window.SetNumberOfLayers(max(window.GetNumberOfLayers(), 2))
        window.AddRenderer(self.renderer)

    def shutdown(self) -> None:
        """Release the picture window's OpenGL resources."""
        if self._window is not None:
            self._window.Finalize()
