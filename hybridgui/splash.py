"""The first window: shown before anything heavy is loaded, it says what is being prepared (loading the engine,
compiling its kernels on the first launch, reading the demo) and how far, until the main window replaces it."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget


class Splash(QWidget):
    """A small frameless window with a title, a progress bar and one line of what is happening."""

    def __init__(self):
        super().__init__(None, Qt.WindowType.SplashScreen | Qt.WindowType.FramelessWindowHint)
        self.setWindowTitle("HybridLab")
        title = QLabel("<b style='font-size:18pt'>HybridLab</b><br>motion analysis of athletes on running blades")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setFormat("%p%")
        self.message = QLabel("starting")
        self.message.setWordWrap(True)
        self.compiled = QLabel("")
        self.compiled.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.addWidget(title)
        layout.addSpacing(12)
        layout.addWidget(self.bar)
        layout.addWidget(self.message)
        layout.addWidget(self.compiled)
        self.setFixedWidth(520)

    def report(self, progress) -> None:
        """Show an engine Progress: its fraction and message."""
        self.bar.setValue(int(1000 * progress.fraction))
        self.message.setText(progress.message)

    def compiling(self, kernel: str, count: int) -> None:
        """Numba is compiling ``kernel``, the ``count``-th this launch (first launch only: then cached)."""
        self.compiled.setText(f"first launch: compiling the numerical kernels once for this computer "
                              f"({count} compiled; now {kernel.rsplit('.', 1)[-1]})")
