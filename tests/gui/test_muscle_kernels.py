"""A first launch shows the window with the bodies while a child process compiles the muscle paths' kernels; the
muscles appear when they are loaded, and closing meanwhile kills the child without waiting for it. The application
starts that child once its first window shows, before it reads the demo or imports its main window. A failed warm-up
is said in the status bar (why, and its details), and the window works as without one; muscle paths whose kernels
could not be compiled at all are said likewise, and the window works without them."""
import copy
import dataclasses
import os
import signal
import subprocess
import sys
import traceback
from types import SimpleNamespace

import numpy as np
import pytest

from engine.child_process import child_environment, python_command
from engine.warmup import COMPILE, compile_muscle_paths
from hybridgui import main_window
from hybridgui.muscle_kernels import CHILD, PATHS, MusclePreparation, Outcome
from hybridgui.startup import MUSCLES_FAILED, MUSCLES_ON_FIRST_USE, PREPARING, PREPARING_AFTER_FAILURE, WARM_UP_FAILED, Launcher


@pytest.fixture(scope="module")
def compiled(work):
    """The muscle paths' kernels compiled in this process (or loaded from numba's cache) before the test, so that
    the worker only loads them, as after the child compiled them."""
    compile_muscle_paths(work[0])


@pytest.fixture
def pending():
    """The muscle paths' kernels not ready, as on a first launch before the child ends (ready again after)."""
    PATHS.ready = False
    yield
    PATHS.ready = True


def drawn_points(window) -> int:
    return window.scene.layers["muscles"].polydata.GetNumberOfPoints()


def test_the_window_draws_the_bodies_first_and_the_muscles_once_their_kernels_are_loaded(make_window, work, compiled,
                                                                                       pending, qtbot, monkeypatch):
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)      # the Launcher's window: the test's
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)              # which show_main replaces
    preparation = MusclePreparation([sys.executable, "-c", "pass"])     # a child that ends at once
    notes = []
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", notes.append, preparation)
    launcher.show_main(None)
    window.view.render()
    assert drawn_points(window) == 0                              # no path while the kernels are compiled elsewhere
    assert all(a.GetMapper().GetInput().GetNumberOfPoints() for a in window.scene.layers["bodies"].actors.values())
    assert window.statusBar().currentMessage() == PREPARING
    with qtbot.waitSignal(preparation.finished, timeout=300_000) as finished:
        preparation.start(work[0])
    assert finished.args == [Outcome()] and PATHS.ready and notes[-1] == "muscle paths drawn"
    assert window.statusBar().currentMessage() == ""
    paths = window.scene.poses.geometry.polylines(window.scene.poses.Q[window.document.frame])
    assert drawn_points(window) == sum(len(p) for p in paths if len(p) >= 2) > 0


def test_a_failed_child_is_said_and_the_kernels_loaded_in_the_worker(work, compiled, pending, qtbot):
    preparation = MusclePreparation([sys.executable, "-c", "import sys; sys.exit('no compiler here')"])
    with qtbot.waitSignal(preparation.finished, timeout=300_000) as finished:
        preparation.start(work[0])
    (outcome,) = finished.args
    assert "status 1" in outcome.problem and "no compiler here" in outcome.problem and outcome.error is None
    assert PATHS.ready


def test_closing_while_the_child_compiles_kills_it_at_once(tmp_path, pending, qtbot):
    pid_file = tmp_path / "pid"
    preparation = MusclePreparation([sys.executable, "-c", "import os, sys, time; open(sys.argv[1], 'w').write("
                                     "str(os.getpid())); time.sleep(120)", str(pid_file)])
    ended = []
    preparation.finished.connect(ended.append)
    preparation.start(None)
    qtbot.waitUntil(lambda: pid_file.exists() and pid_file.read_text() != "", timeout=30_000)
    pid = int(pid_file.read_text())
    preparation.cancel()
    preparation.thread.join(10)       # only against waiting forever: the child would sleep 120 s if not killed
    assert not preparation.running
    assert preparation._child.returncode == -signal.SIGKILL       # killed, not waited for
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)                                           # and reaped
    qtbot.wait(200)
    assert ended == [] and not PATHS.ready                        # nothing loaded, nothing announced


def test_the_childs_command_compiles_or_loads_the_muscle_paths():
    done = subprocess.run(python_command(*CHILD), input=COMPILE, env=child_environment(), capture_output=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-2000:]


RECORDER = "import sys; open(sys.argv[1], 'wb').write(sys.stdin.buffer.read())"
"""A child that writes what the window's process told it on its standard input to the file named, once it is closed."""


def test_the_child_is_told_to_compile_when_a_kernel_is_missing(tmp_path, work, compiled, pending, qtbot):
    told = tmp_path / "told"
    preparation = MusclePreparation([sys.executable, "-c", RECORDER, str(told)])
    preparation.launch()
    with qtbot.waitSignal(preparation.finished, timeout=300_000) as finished:
        preparation.start(work[0])
    assert finished.args == [Outcome()] and told.read_bytes() == COMPILE


def test_the_child_ends_when_the_main_window_shows_with_every_kernel_loaded(make_window, work, tmp_path,
                                                                           monkeypatch):
    """A launch that is not the first: the window's process found the 3D view's kernels in numba's cache (it loaded
    them), so the child, waiting for its word, is released and ends without checking them again."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    told = tmp_path / "told"
    preparation = MusclePreparation([sys.executable, "-c", RECORDER, str(told)])
    preparation.launch()
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", lambda what: None, preparation)
    launcher.show_main(SimpleNamespace(demo=work))
    assert preparation._child.wait(timeout=60) == 0 and told.read_bytes() == b""
    assert PATHS.ready and window.statusBar().currentMessage() != PREPARING


LAUNCH = """
import os
import sys
import threading
import engine.child_process
def started(command, **kw):
    print(command[-1])
    print("GUI thread" if threading.current_thread() is threading.main_thread() else "another thread")
    print(sorted(m for m in ("engine.demo", "engine.warmup", "hybridgui.main_window") if m in sys.modules), flush=True)
    os._exit(0)
engine.child_process.start_child = started
from hybridgui.app import main
main([])
"""


def test_the_application_starts_its_compile_child_off_the_gui_thread_before_it_reads_the_demo_or_its_main_window():
    done = subprocess.run([sys.executable, "-c", LAUNCH], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [CHILD[-1], "another thread", "[]"]


def test_a_failed_warm_up_is_said_and_the_window_works_as_without_one(make_window, work, compiled, qtbot, monkeypatch):
    """The warm-up failed before it knew whether the muscle paths' kernels are cached: the compile child is started
    as on a first launch (the muscles drawn when it ends, "Preparing..." meanwhile, saying why: the warm-up failed,
    whatever the launch), the status bar says the warm-up failed and why until the application ends (its traceback a
    click away), and the demo is analysed."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(PATHS, "ready", True)                          # and again after the test
    preparation = MusclePreparation([sys.executable, "-c", "pass"])     # a child that ends at once
    preparation.launch()
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", lambda what: None, preparation)
    try:
        raise OSError("numba's cache folder is not writable")
    except OSError as exc:
        failed, details = exc, traceback.format_exc()
    with qtbot.waitSignal(preparation.finished, timeout=300_000) as finished:
        launcher.warm_up_failed(failed, details)
        window.view.render()
        preparing = window.statusBar().currentMessage()
        assert not PATHS.ready and drawn_points(window) == 0 and preparing == PREPARING_AFTER_FAILURE
        assert "the warm-up failed" in preparing and "first launch" not in preparing
    assert finished.args == [Outcome()] and PATHS.ready and window.statusBar().currentMessage() == ""
    assert drawn_points(window) > 0                                  # the muscles, once their kernels are loaded
    notice = launcher.failure
    assert notice.isVisible() and "not writable" in notice.text() and WARM_UP_FAILED in notice.text()
    notice.linkActivated.emit("details")
    assert window.last_error.detailedText() == details and window.reported[-1].startswith(WARM_UP_FAILED)
    window.last_error.close()
    # the analysis runs (its kernels compiled now if numba's cache lacks them): a fifth of a second of the demo
    result, settings = work
    t0 = float(result.ik.time[0])
    short = copy.deepcopy(settings)
    short.ik = dataclasses.replace(settings.ik, start=t0, end=t0 + 0.2)
    window.settings_panel.set_settings(short, [m.name for m in result.model.markers],
                                       (result.trial.start_time, result.trial.end_time))
    with qtbot.waitSignal(window.runner.finished, timeout=300_000):
        assert window.run_analysis()
    again = window.document.result
    assert again is not result and again.ik.time[0] == pytest.approx(t0) and again.ik.time[-1] <= t0 + 0.2 + 1e-9
    shipped = result.ik.q[:again.ik.n_frames]          # the shipped analysis of the same frames
    assert again.ik.n_frames > 10 and np.abs(again.ik.q - shipped).max() < 0.05


def _failed_warm_up():
    """A warm-up's failure and its traceback, as ``Startup`` reports them."""
    try:
        raise OSError("numba's cache folder is not writable")
    except OSError as exc:
        return exc, traceback.format_exc()


def test_muscle_paths_the_warm_up_found_missing_before_it_failed_are_prepared_as_on_a_first_launch(
        make_window, work, compiled, qtbot, monkeypatch):
    """The warm-up found the muscle paths' kernels missing from numba's cache (it started the child) and failed after:
    "Preparing..." says why as on a first launch, not that the warm-up failed."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(PATHS, "ready", True)
    preparation = MusclePreparation([sys.executable, "-c", "pass"])
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", lambda what: None, preparation)
    with qtbot.waitSignal(preparation.finished, timeout=300_000):
        preparation.start(work[0])                      # by the warm-up, which then fails
        launcher.warm_up_failed(*_failed_warm_up())
        assert window.statusBar().currentMessage() == PREPARING and "first launch" in PREPARING
    assert window.statusBar().currentMessage() == ""


def _unreadable_demo():
    raise OSError("the demo cannot be read")


def _no_compiler(result):
    raise RuntimeError("no compiler here either")


def test_muscle_paths_that_cannot_be_compiled_are_said_and_the_window_works_without_them(make_window, work, qtbot,
                                                                                         monkeypatch):
    """After a failed warm-up the compile child fails and the window's process, the demo read, cannot compile the
    muscle paths' kernels itself: the status bar says they could not be compiled and why, that the muscles are not
    drawn (never that they were compiled), the details a click away, and the window goes on drawing the rest."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(PATHS, "ready", True)                          # and again after the test
    monkeypatch.setattr("engine.demo.demo_results", lambda: work)      # read by the worker after a failed warm-up
    monkeypatch.setattr("engine.warmup.muscle_paths_cached", lambda result: False)
    monkeypatch.setattr("engine.warmup.compile_muscle_paths", _no_compiler)
    preparation = MusclePreparation([sys.executable, "-c", "import sys; sys.exit('no compiler here')"])
    preparation.launch()
    notes = []
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", notes.append, preparation)
    with qtbot.waitSignal(preparation.finished, timeout=60_000) as finished:
        launcher.warm_up_failed(*_failed_warm_up())
    (outcome,) = finished.args
    assert isinstance(outcome.error, RuntimeError) and not outcome.on_first_use
    assert "no compiler here" in outcome.problem and not PATHS.ready
    assert notes[-1] == "muscle paths not drawn"
    status = window.statusBar()
    assert status.currentMessage() == ""                              # "Preparing..." gone, no "were compiled"
    notice = launcher.muscles_failure
    assert notice.isVisible() and launcher.failure.isVisible()       # beside the warm-up's
    assert MUSCLES_FAILED in notice.text() and "RuntimeError: no compiler here either" in notice.text()
    assert "the muscles are not drawn" in notice.text()
    notice.linkActivated.emit("details")
    said = window.last_error.detailedText()
    assert window.reported[-1].startswith(MUSCLES_FAILED) and said == outcome.details
    assert "no compiler here" in said and "_no_compiler" in said and said.rstrip().endswith(
        "RuntimeError: no compiler here either")
    window.last_error.close()
    # the window works without the muscles: another frame drawn, bodies and all, no path
    window.document.set_frame(window.document.n_frames // 2)
    window.view.render()
    assert drawn_points(window) == 0
    assert all(a.GetMapper().GetInput().GetNumberOfPoints() for a in window.scene.layers["bodies"].actors.values())


def test_an_unreadable_demo_leaves_the_muscle_paths_to_compile_for_the_model_opened(make_window, work, compiled,
                                                                                      qtbot, monkeypatch):
    """The warm-up failed on the demo (an unreadable results file), so the compile child and the window's process
    cannot read it either: the muscle paths' kernels compile where the muscles are first drawn, for the model the
    user opens (PATHS ready), the status bar saying so and why, not that the muscles are not drawn."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(PATHS, "ready", True)
    monkeypatch.setattr("engine.demo.demo_results", _unreadable_demo)
    preparation = MusclePreparation([sys.executable, "-c", "import sys; sys.exit('the demo cannot be read')"])
    preparation.launch()
    notes = []
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: [], None, (1500, 950),
                        "hybridgui", notes.append, preparation)
    with qtbot.waitSignal(preparation.finished, timeout=60_000) as finished:
        launcher.warm_up_failed(*_failed_warm_up())
    (outcome,) = finished.args
    assert isinstance(outcome.error, OSError) and outcome.on_first_use and PATHS.ready
    assert notes[-1] == "muscle paths compiled on first use" and launcher.muscles_failure.isVisible()
    text = launcher.muscles_failure.text()
    assert MUSCLES_ON_FIRST_USE in text and "OSError: the demo cannot be read" in text
    assert "first drawn" in text and "not drawn" not in text
    launcher.muscles_failure.linkActivated.emit("details")
    assert window.last_error.detailedText() == outcome.details and "_unreadable_demo" in outcome.details
    window.last_error.close()
    window.open_demo(work)                   # the user's model (here the demo's, read another way): its muscles drawn
    window.view.render()
    paths = window.scene.poses.geometry.polylines(window.scene.poses.Q[window.document.frame])
    assert drawn_points(window) == sum(len(p) for p in paths if len(p) >= 2) > 0


def test_muscle_paths_that_could_not_be_compiled_before_the_window_showed_are_said_when_it_shows(
        make_window, work, qtbot, monkeypatch):
    """The preparation ended (in failure) while the first window still showed: the main window says it when it shows,
    instead of "Preparing..." for ever."""
    window = make_window()
    monkeypatch.setattr(main_window, "MainWindow", lambda store: window)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(PATHS, "ready", True)
    monkeypatch.setattr("engine.warmup.muscle_paths_cached", lambda result: False)
    monkeypatch.setattr("engine.warmup.compile_muscle_paths", _no_compiler)
    preparation = MusclePreparation([sys.executable, "-c", "pass"])
    with qtbot.waitSignal(preparation.finished, timeout=60_000):
        preparation.start(work[0])
    launcher = Launcher(None, SimpleNamespace(close=lambda: None), lambda window, demo: window.open_demo(work) or [],
                        None, (1500, 950), "hybridgui", lambda what: None, preparation)
    launcher.show_main(None)
    assert not PATHS.ready and window.statusBar().currentMessage() != PREPARING
    assert launcher.muscles_failure.isVisible() and MUSCLES_FAILED in launcher.muscles_failure.text()
    window.view.render()
    assert drawn_points(window) == 0


def test_closing_while_the_child_is_being_started_kills_it_once_started(tmp_path, monkeypatch):
    """``launch`` runs in the startup thread: a ``cancel`` from the GUI thread while it starts the child (here: while
    ``start_child`` returns) finds no child yet; the child, once started, is killed all the same."""
    import engine.child_process
    started = engine.child_process.start_child
    preparation = MusclePreparation([sys.executable, "-c", "import time; time.sleep(120)"])

    def cancelled_meanwhile(*args, **kwargs):
        child = started(*args, **kwargs)
        preparation.cancel()              # the GUI thread's, before launch has the child
        return child

    monkeypatch.setattr(engine.child_process, "start_child", cancelled_meanwhile)
    preparation.launch()
    child = preparation._child
    try:
        assert child.poll() == -signal.SIGKILL                    # killed and reaped, not left sleeping
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
