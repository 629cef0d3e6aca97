"""The report's sections from the packages beside the engine: a section failing on HybridLab's own error becomes a note
and the others are still drawn; any other exception propagates."""
from __future__ import annotations

import pytest

from engine.errors import ModelError
from engine.io import report_sections
from engine.io.report_sections import ReportSection, section_steps
from engine.progress import Progress, run


class _Plugin:
    def __init__(self, name, steps):
        self.name, self._steps = name, steps

    def load(self):
        return self._steps


def _failing(error):
    def steps(result, settings, events, trial):
        yield Progress("socket load", 0.0, "starting")
        raise error
    return steps


def _drawn(result, settings, events, trial):
    yield Progress("drawing", 0.5, "half")
    return ReportSection("drawn", notes=[f"drawn for {trial}"])


def test_a_section_failing_on_bad_input_becomes_a_note(monkeypatch):
    plugins = [_Plugin("a-socket", _failing(ModelError("does not enclose the stump", "socket on 'tibia_r'"))),
               _Plugin("b-other", _drawn)]
    monkeypatch.setattr(report_sections, "entry_points", lambda group: plugins)
    sections = run(section_steps(None, None, None, "walk1"))
    assert [s.title for s in sections] == ["a-socket", "drawn"]
    assert sections[0].pages == []
    assert sections[0].notes == ["a-socket section not drawn: socket on 'tibia_r': does not enclose the stump"]
    assert sections[1].notes == ["drawn for walk1"]


def test_a_section_failing_on_a_bug_stops_the_report(monkeypatch):
    plugins = [_Plugin("a-socket", _failing(IndexError("a bug"))), _Plugin("b-other", _drawn)]
    monkeypatch.setattr(report_sections, "entry_points", lambda group: plugins)
    with pytest.raises(IndexError, match="a bug"):
        run(section_steps(None, None, None, "walk1"))


def test_each_section_gets_its_own_options(monkeypatch):
    """The report's options are keyword arguments per section (entry point name): the socket's liner reaches the
    socket section alone; a section without options is called without any."""
    got = {}

    def socket(result, settings, events, trial, friction=None):
        got["socket"] = friction
        return ReportSection("socket")
        yield

    def other(result, settings, events, trial):
        got["other"] = trial
        return ReportSection("other")
        yield

    monkeypatch.setattr(report_sections, "entry_points", lambda group: [_Plugin("a-socket", socket),
                                                                         _Plugin("b-other", other)])
    run(section_steps(None, None, None, "walk1", options={"a-socket": {"friction": 0.61}}))
    assert got == {"socket": 0.61, "other": "walk1"}
    run(section_steps(None, None, None, "walk1"))
    assert got == {"socket": None, "other": "walk1"}
