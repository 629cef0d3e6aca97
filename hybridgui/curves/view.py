"""The curves dock: one tab per series group (GRF, angles, torques, blade, muscle forces, activations, IK
errors), a choice between time and gait-cycle axes, and the cursor kept at the document's frame.

A tab's panel is built the first time it is shown, so that a new result appears without a pause; the
channels chosen per group are kept across results.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from engine.analysis.series import GROUPS, result_series
from engine.clinical.summary import trial_gait
from engine.errors import HybridLabError
from engine.io.normative_file import builtin_bands, coordinate_band
from engine.display.colours import SIDE_WORDS, channel_side, channel_words

from .panel import CurvePanel

DEFAULT_CHANNELS = {"grf": ("vertical",), "angles": ("hip_flexion", "knee_angle", "ankle_angle"),
                    "torques": ("hip_flexion", "knee_angle", "ankle_angle"), "blade strains": ("_ky", "_kz"),
                    "blade forces": ("_ky", "_kz"), "ik errors": ("RMS", "max")}
"""Channels shown at first, by substring: the vertical GRF, the sagittal joints, the blade's bending, IK errors."""

AXES = ("time", "Right gait cycle", "Left gait cycle")
TAB_NAMES = {"grf": "GRF", "angles": "joint angles", "torques": "joint moments", "blade strains": "blade bending",
             "blade forces": "blade loads", "ik errors": "IK errors"}


def _meaning(channel: str) -> tuple[str | None, set]:
    """A channel's side and its other words: ``foot_l vertical`` -> ('Left', {'foot', 'vertical'})."""
    return channel_side(channel), {w for w in channel_words(channel) if w not in SIDE_WORDS}


def carried_selection(chosen, channels: list[str]) -> list[str]:
    """The channels of a new trial that mean what ``chosen`` (channels of another trial) meant: the same name,
    else the channel of the same side sharing the most words with it (``foot_l vertical`` -> ``calcn_l
    vertical``, ``blade vertical`` -> ``calcn_r vertical``); names that match nothing are dropped."""
    out = []
    for name in chosen:
        if name in channels:
            out.append(name)
            continue
        side, words = _meaning(name)
        scored = [(len(words & w) / len(words | w), c) for c in channels for s, w in [_meaning(c)]
                  if s == side and words & w]
        if scored:
            out.append(max(scored, key=lambda sc: sc[0])[1])
    return list(dict.fromkeys(out))


def default_channels(group: str, channels: list[str]) -> list[str]:
    chosen = [c for c in channels if any(k in c for k in DEFAULT_CHANNELS.get(group, ()))][:6]
    return chosen or channels[:3]


class CurvesView(QWidget):
    """Tabs of :class:`CurvePanel` for the document's result; ``notice(text)`` passes on why curves are not
    drawn."""

    notice = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.tabs = QTabWidget()
        self.axis = QComboBox()
        self.axis.addItems(AXES)
        self.axis.setToolTip("Plot against time, or normalised to the gait cycles of one side (mean and spread; "
                             "cycles from the Foot Strike events)")
        self.axis.currentIndexChanged.connect(self._apply_axis)
        top = QHBoxLayout()
        top.addWidget(QLabel("x axis:"))
        top.addWidget(self.axis)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.tabs)
        self.panels: dict[str, CurvePanel] = {}      # the panels built so far
        self.groups: dict[str, list] = {}            # every group of the result and its series
        self.stances: dict = {}
        self._chosen: dict[str, list] = {}           # channels per group, kept across results
        self._result = None
        self._gait: str | None = None                # the shown trial's gait, found when first needed
        self._builtin: list | None = None            # the shipped normative bands, read when first needed
        document.changed.connect(self._on_content)
        document.events_changed.connect(self._apply_axis)
        document.frame_changed.connect(self._on_frame)
        self.tabs.currentChanged.connect(self._on_tab)

    def _on_content(self) -> None:
        result = self.document.result
        if result is self._result:
            return
        self._chosen.update(self.selection())
        self._result, self._gait = result, None
        series = result_series(result, self.document.settings.forward) if result is not None else []
        groups = {g: [s for s in series if s.group == g] for g in GROUPS}
        groups = {g: members for g, members in groups.items() if members}
        same = {g: [s.label for s in m] for g, m in groups.items()} == \
            {g: [s.label for s in m] for g, m in self.groups.items()}
        self.groups = groups
        if same:            # a new analysis of the same model: the panels stay, with the new values
            for group, panel in self.panels.items():
                panel.set_normative(self._normative(panel))
                panel.set_series(groups[group])
            self._on_frame(self.document.frame)
            return
        current = self.tabs.tabText(self.tabs.currentIndex()) if self.tabs.count() else None
        self.tabs.blockSignals(True)
        while self.tabs.count():
            page = self.tabs.widget(0)
            self.tabs.removeTab(0)
            page.deleteLater()
        self.panels = {}
        for group in self.groups:
            self.tabs.addTab(QWidget(), TAB_NAMES.get(group, group))
        names = [self.tabs.tabText(i) for i in range(self.tabs.count())]
        self.tabs.setCurrentIndex(names.index(current) if current in names else 0)
        self.tabs.blockSignals(False)
        self._on_tab(self.tabs.currentIndex())

    def panel(self, group: str) -> CurvePanel:
        """The panel of ``group``, built now if it was not yet."""
        if group not in self.panels:
            panel = CurvePanel(group, self.groups[group])
            panel.seek.connect(self.document.set_time)
            panel.notice.connect(self.notice)
            panel.set_stances(self.stances)
            panel.select(carried_selection(self._chosen.get(group, ()), panel.channels)
                         or default_channels(group, panel.channels))
            panel.set_normative(self._normative(panel))
            panel.set_normalised(self._normalised())
            index, current = list(self.groups).index(group), self.tabs.currentIndex()
            self.tabs.blockSignals(True)
            page = self.tabs.widget(index)
            self.tabs.removeTab(index)
            page.deleteLater()
            self.tabs.insertTab(index, panel, TAB_NAMES.get(group, group))
            self.tabs.setCurrentIndex(current)
            self.tabs.blockSignals(False)
            self.panels[group] = panel
        return self.panels[group]

    def _on_tab(self, index: int) -> None:
        if index < 0 or not self.groups:
            return
        self.panel(list(self.groups)[index])
        self._on_frame(self.document.frame)

    def set_stances(self, stances: dict) -> None:
        self.stances = stances
        for panel in self.panels.values():
            panel.set_stances(stances)

    def selection(self) -> dict:
        """``{group: [channels shown]}`` of every group (saved in sessions)."""
        out = {g: list(c) for g, c in self._chosen.items() if g in self.groups}
        out.update({group: panel.selected_channels() for group, panel in self.panels.items()})
        return out

    def shown_series(self) -> list:
        """The series of the channels chosen in every group (built or not), in group order."""
        selection = self.selection()
        out = []
        for group, members in self.groups.items():
            channels = list(dict.fromkeys(m.channel for m in members))
            wanted = set(carried_selection(selection.get(group, ()), channels) or default_channels(group, channels))
            out += [s for s in members if s.channel in wanted]
        return out

    def restore_selection(self, selection: dict) -> None:
        self._chosen.update(selection)
        for group, channels in selection.items():
            if group in self.panels:
                self.panels[group].select(carried_selection(channels, self.panels[group].channels))

    def current_panel(self) -> CurvePanel | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, CurvePanel) else None

    def _normalised(self):
        index = self.axis.currentIndex()
        return None if index == 0 else (list(self.document.events), AXES[index].split()[0])

    def _normative(self, panel) -> dict:
        """``{channel: (band, lower, upper)}`` of the panel's joint angles that have a shipped able-bodied band of
        the trial's gait (walking or running, from its flight phase), when curves are drawn on the gait cycle."""
        result = self.document.result
        if panel.group != "angles" or self._normalised() is None or result is None:
            return {}
        if self._gait is None:
            try:
                self._gait = trial_gait(result, list(self.document.events), self.document.settings.forward)
            except HybridLabError as exc:
                self.notice.emit(f"No normative bands: the trial's gait (walking or running) is not known: {exc}")
                return {}
            self._builtin = self._builtin if self._builtin is not None else builtin_bands()
        out = {c: coordinate_band(self._builtin, c, self._gait) for c in panel.channels}
        return {c: b for c, b in out.items() if b is not None}

    def _apply_axis(self) -> None:
        self._gait = None           # the events may have changed: the gait is found again
        normalised = self._normalised()
        for panel in self.panels.values():
            panel.set_normative(self._normative(panel))
            if panel.normalised != normalised:
                panel.set_normalised(normalised)

    def _on_frame(self, frame: int) -> None:
        panel = self.current_panel()
        if panel is not None and len(self.document.time):
            panel.set_frame(frame, self.document.current_time)
