"""The 3D view widget: VTK inside Qt on a real display (``QVTKRenderWindowInteractor``), or rendered off screen
into an image under Qt's offscreen platform (where no OpenGL window can exist). Both draw the same
:class:`~hybridgui.viewport.scene.Scene`, render only on the GUI thread, group render requests with a
zero-delay timer (pyvistaqt's pattern), click to pick, and give the last frame as a ``QImage``."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtWidgets import QVBoxLayout, QWidget
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkUnsignedCharArray
from vtkmodules.vtkRenderingCore import vtkRenderWindow

import vtkmodules.vtkInteractionStyle  # noqa: F401  (registers the interactor styles)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL render window)

LABEL_MIME = "application/x-hybridlab-marker-label"
CLICK = 4   # px: a press and release closer than this is a click (pick), not a drag
OFFSCREEN_PLATFORMS = ("offscreen", "minimal")


class WindowReader:
    """Reads the last frame of a VTK render window into a QImage (without rendering again): its RGBA pixels into one
    reused VTK array, turned upright in the one copy the image owns (32 bits a pixel: painting it needs no expansion
    from 24 bits)."""

    def __init__(self, window):
        self.window = window
        self.pixels = vtkUnsignedCharArray()

    def image(self) -> QImage:
        w, h = self.window.GetSize()
        self.window.GetRGBACharPixelData(0, 0, w - 1, h - 1, 0, self.pixels, 0)
        rgba = vtk_to_numpy(self.pixels)
        return QImage(rgba.data, w, h, 4 * w, QImage.Format.Format_RGBX8888).flipped(Qt.Orientation.Vertical)


class _View(QWidget):
    """What both views share: render requests grouped by a timer, the picked signal."""

    picked = Signal(object)      # Picked or None
    rendered = Signal()
    label_dropped = Signal(str, object)      # a trial label dropped (LABEL_MIME), the model marker there or None
    DEVICE_PIXELS = False                    # whether VTK's display positions are device pixels (not the widget's)

    def __init__(self, scene, parent=None):
        super().__init__(parent)
        self.scene = scene
        self.setAcceptDrops(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._render_if_shown)

    def request_render(self) -> None:
        """Render soon, once, however many requests arrive before (never while the view is hidden)."""
        if not self._timer.isActive():
            self._timer.start()

    def _render_if_shown(self) -> None:
        if self.isVisible():
            self.render()

    def _pick(self, x: float, y: float) -> None:
        self.picked.emit(self.scene.pick(x, y))

    def dragEnterEvent(self, event):
        if event.mimeData().hasFormat(LABEL_MIME):      # files dropped go on to the window
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event):
        self.dragEnterEvent(event)

    def dropEvent(self, event):
        """A trial label dropped on the model: the model marker drawn there (display pixels from the bottom left)."""
        if not event.mimeData().hasFormat(LABEL_MIME):
            event.ignore()
            return
        label = bytes(event.mimeData().data(LABEL_MIME)).decode()
        p, ratio = event.position(), (self.devicePixelRatioF() if self.DEVICE_PIXELS else 1.0)
        self.label_dropped.emit(label, self.scene.model_marker_at(p.x() * ratio, (self.height() - p.y()) * ratio))
        event.acceptProposedAction()


class OffscreenView(_View):
    """Renders the scene off screen at the widget's size and paints the image."""

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.window = vtkRenderWindow()
        self.window.SetOffScreenRendering(1)
        self.window.SetMultiSamples(0)
        self.window.AddRenderer(scene.renderer)
        scene.overlay.paint_over_frames()          # Qt blends the legends' picture faster than software OpenGL
        self.reader = WindowReader(self.window)
        self._image = QImage()
        self._press: QPoint | None = None
        self._last: QPoint | None = None
        self.setMinimumSize(200, 150)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)     # the image covers the widget: no background

    def render(self) -> None:
        size = self.size()
        self.window.SetSize(max(size.width(), 1), max(size.height(), 1))
        overlay = self.scene.overlay
        overlay.update(self.window)
        self.window.Render()
        self._image = self.reader.image()
        if not overlay.image.isNull():
            painter = QPainter(self._image)
            painter.drawImage(0, 0, overlay.image)
            painter.end()
        self.update()
        self.rendered.emit()

    def image(self) -> QImage:
        self.render()
        return self._image

    def shutdown(self) -> None:
        """Release the OpenGL resources (before the window closes)."""
        self.scene.overlay.shutdown()
        self.window.Finalize()

    def paintEvent(self, event):
        painter = QPainter(self)
        painter.drawImage(self.rect(), self._image)
        painter.end()

    def resizeEvent(self, event):
        self.request_render()
        super().resizeEvent(event)

    def mousePressEvent(self, event):
        self._press = self._last = event.position().toPoint()

    def mouseMoveEvent(self, event):
        if self._last is None:
            return
        p = event.position().toPoint()
        d = p - self._last
        self._last = p
        camera = self.scene.renderer.GetActiveCamera()
        if event.buttons() & Qt.MouseButton.LeftButton:
            camera.Azimuth(-0.4 * d.x())
            camera.Elevation(0.4 * d.y())
            camera.OrthogonalizeViewUp()
        elif event.buttons() & Qt.MouseButton.RightButton:
            camera.Dolly(1.0 + 0.005 * d.y())
        self.scene.renderer.ResetCameraClippingRange()
        self.request_render()

    def mouseReleaseEvent(self, event):
        p = event.position().toPoint()
        if self._press is not None and (p - self._press).manhattanLength() < CLICK:
            self._pick(p.x(), self.height() - p.y())
        self._press = self._last = None

    def wheelEvent(self, event):
        self.scene.renderer.GetActiveCamera().Dolly(1.1 if event.angleDelta().y() > 0 else 1 / 1.1)
        self.scene.renderer.ResetCameraClippingRange()
        self.request_render()


class InteractiveView(_View):
    """``QVTKRenderWindowInteractor`` with a trackball camera; a click picks."""

    DEVICE_PIXELS = True

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        from vtkmodules.qt.QVTKRenderWindowInteractor import QVTKRenderWindowInteractor
        from vtkmodules.vtkInteractionStyle import vtkInteractorStyleTrackballCamera
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.vtk_widget = QVTKRenderWindowInteractor(self)
        layout.addWidget(self.vtk_widget)
        self.window = self.vtk_widget.GetRenderWindow()
        self.window.SetMultiSamples(0)
        self.window.AddRenderer(scene.renderer)
        self.window.AddObserver("StartEvent", self._update_overlay)     # every render, the interactor's too
        self.reader = WindowReader(self.window)
        interactor = self.window.GetInteractor()
        interactor.SetInteractorStyle(vtkInteractorStyleTrackballCamera())
        interactor.AddObserver("LeftButtonPressEvent", self._on_press)
        interactor.AddObserver("LeftButtonReleaseEvent", self._on_release)
        self._press = None
        self.vtk_widget.Initialize()
        self.setMinimumSize(200, 150)

    def _on_press(self, interactor, _event):
        self._press = interactor.GetEventPosition()

    def _on_release(self, interactor, _event):
        x, y = interactor.GetEventPosition()
        if self._press is not None and abs(x - self._press[0]) + abs(y - self._press[1]) < CLICK:
            self._pick(x, y)
        self._press = None

    def render(self) -> None:
        self.window.Render()
        self.rendered.emit()

    def image(self) -> QImage:
        self.window.Render()
        return self.reader.image()

    def _update_overlay(self, window, _event) -> None:
        self.scene.overlay.update(window)

    def shutdown(self) -> None:
        """Release the OpenGL resources (before the window closes)."""
        self.scene.overlay.shutdown()
        self.vtk_widget.Finalize()


def offscreen_platform() -> bool:
    """Whether Qt runs without a screen (the offscreen or minimal platform)."""
    return QGuiApplication.platformName() in OFFSCREEN_PLATFORMS


def make_view(scene, parent=None) -> _View:
    """The view suited to the Qt platform in use."""
    return OffscreenView(scene, parent) if offscreen_platform() else InteractiveView(scene, parent)
