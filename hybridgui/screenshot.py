"""Pictures of what the user sees: the whole window with the 3D view painted in (an OpenGL view is not part
of ``QWidget.grab``), and the 3D view alone."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QImage, QPainter

from .exports import save_png


def window_image(window) -> QImage:
    """The main window as shown, the 3D view's last frame included."""
    view = window.view
    frame = view.image()
    image = window.grab().toImage()
    ratio = image.devicePixelRatio()
    origin = view.mapTo(window, QPoint(0, 0))
    painter = QPainter(image)
    painter.drawImage(QRect(origin, view.size()), frame)
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


def save_window(window, path) -> None:
    """Write the window as a PNG file (atomically)."""
    save_png(path, window_image(window))
