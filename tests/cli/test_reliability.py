"""The command line fails safe (issue 18): settings out of range, a full disk, a read-only output folder and a
stale earlier run are clear errors or cleaned up, the output folder keeps its previous contents on failure, and
a child process does not outlive its parent."""
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cli.main import main
from engine.io.output_folder import output_folder
from tests.processes import children, readers, running, slow_c3d

GAIT = Path(__file__).parents[1] / "data" / "opensim" / "gait10dof18musc"
PREVIOUS = {"ik.mot": "previous ik\n", "metrics.json": "{\"previous\": true}\n", "muscle_forces.sto": "old\n",
            "activations.sto": "old\n", "emg_comparison.csv": "old\n", "my_notes.txt": "the user's own file\n"}


def arguments(out, *options):
    return ["analyze", str(GAIT / "subject01.osim"), str(GAIT / "subject01_walk.trc"), "--external-loads",
            str(GAIT / "subject01_walk_grf.xml"), "--out", str(out), "--quiet", *options]


def analyze(out, *options, preexec_fn=None, prefix=()):
    command = [*prefix, sys.executable, "-m", "engine.cli.main", *arguments(out, *options)]
    return subprocess.run(command, capture_output=True, text=True, preexec_fn=preexec_fn)


def previous_run(folder: Path) -> dict:
    folder.mkdir()
    for name, text in PREVIOUS.items():
        (folder / name).write_text(text)
    return contents(folder)


def contents(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


@pytest.mark.parametrize("value,message", [("nan", "--filter must be a positive number of Hz"),
                                           ("-5", "--filter must be a positive number of Hz"),
                                           ("1e-9", "the coordinates' cut-off must be a number of Hz from 0.0006")])
def test_filter_values_out_of_range_are_clear_errors(tmp_path, capsys, value, message):
    assert main(arguments(tmp_path / "out", f"--filter={value}")) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()            # the folder the failed run created is removed


def test_a_full_disk_is_an_error_before_the_work_and_the_folder_is_kept(tmp_path):
    out = tmp_path / "out"
    before = previous_run(out)

    def small_files():        # as `ulimit -f 64`: no file may grow beyond 64 kB (the results need about 1 MB)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    done = analyze(out, preexec_fn=small_files)
    assert done.returncode == 2 and "the output folder has no room for the results" in done.stderr
    assert "Traceback" not in done.stderr and "IK:" not in done.stdout
    assert contents(out) == before


def _read_only(folder: Path):
    """The prefix of a command that sees ``folder`` read-only: its permissions for an ordinary user; for root,
    who ignores them, a read-only bind mount in a user and mount namespace of its own."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return ()
    return ("unshare", "-Urm", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"',
            str(folder))


# `hybrid analyze` run with its analysis (IK onwards, after the inputs are read) saying when it starts
WATCHED = ("import sys; import engine.cli.analyze as command; work = command._analyse; "
           "command._analyse = lambda *a: print('the analysis started', flush=True) or work(*a); "
           "from engine.cli.main import main; sys.exit(main(sys.argv[1:]))")


def test_a_read_only_output_folder_is_an_error_before_the_work(tmp_path):
    out = tmp_path / "out"
    before = previous_run(out)
    done = subprocess.run([*_read_only(out), sys.executable, "-c", WATCHED, *arguments(out)], capture_output=True,
                          text=True)
    out.chmod(0o755)
    assert done.returncode == 2 and "the output folder cannot be written" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "the analysis started" not in done.stdout
    assert contents(out) == before


def test_the_watched_command_says_when_its_analysis_starts(tmp_path):
    """The positive control of WATCHED: in a folder that can be written, the hook says the analysis started (so a
    renamed ``_analyse`` fails here instead of making the read-only test pass without watching anything)."""
    done = subprocess.run([sys.executable, "-c", WATCHED, *arguments(tmp_path / "out", "--end", "0.5")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("the analysis started") == 1


def test_a_run_leaves_no_file_of_an_earlier_run(tmp_path):
    out = tmp_path / "out"
    previous_run(out)
    (out / "manifest.json").write_text(json.dumps({"files": ["ik.mot", "contacts.yaml", "setup.xml"]}))
    (out / "contacts.yaml").write_text("an earlier run's generated candidates\n")
    (out / "setup.xml").write_text((GAIT / "ik_setup.xml").read_text())       # an input of this run: kept
    assert main(arguments(out, "--ik-setup", str(out / "setup.xml"))) == 0
    written = json.loads((out / "manifest.json").read_text())["files"]
    assert set(written) == {"ik.mot", "ik_marker_errors.sto", "ik_marker_residuals.sto", "id.sto",
                            "joint_reactions.sto", "grf_measured.mot", "metrics.json"}
    # the earlier run's muscle files are gone, the user's own file stays, nothing is left staged
    assert {p.name for p in out.iterdir()} == set(written) | {"manifest.json", "my_notes.txt", "setup.xml"}
    assert json.loads((out / "metrics.json").read_text())["ik"]["frames"] == 151


def test_sigterm_to_hybrid_info_leaves_no_reader_process(tmp_path):
    """A C3D that ezc3d needs seconds to read; the command is terminated as soon as its reader has started, and
    the reader must go with it."""
    path = slow_c3d(tmp_path / "slow.c3d")
    parent = subprocess.Popen([sys.executable, "-m", "engine.cli.main", "info", str(path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60    # only against waiting forever if the reader never starts (it does in ~1 s)
    found = []
    while not found and time.monotonic() < deadline and parent.poll() is None:
        found = readers(parent.pid)
        time.sleep(0.01)
    assert found, "the reader process was not seen"
    parent.send_signal(signal.SIGTERM)
    assert parent.wait(10) == -signal.SIGTERM
    time.sleep(0.3)                     # the reader alone needs over two seconds for this file (without being
    assert not running(found[0])        # killed with its parent it was still reading at this point)


def _files(folder: Path) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def test_make_demo_writes_into_the_working_folder_and_reports_a_killed_child(tmp_path):
    """Without --out the demo goes to ./hybrid-demo, never into the installed package; the generation child
    killed midway is reported (it used to exit 247 silently)."""
    from engine.demo import demo_files
    package = demo_files().model.parent
    before = _files(package)
    parent = subprocess.Popen([sys.executable, "-m", "engine.cli.main", "make-demo", "--no-analysis"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120   # only against waiting forever: the folder appears within seconds
    while not (tmp_path / "hybrid-demo" / "demo").is_dir() and time.monotonic() < deadline:
        time.sleep(0.05)
    generation = children(parent.pid)
    assert (tmp_path / "hybrid-demo" / "demo").is_dir() and len(generation) == 1
    os.kill(generation[0], signal.SIGKILL)
    _, err = parent.communicate(timeout=60)
    assert parent.returncode == 1
    assert "the generation process was killed by signal SIGKILL" in err and str(tmp_path / "hybrid-demo") in err
    assert _files(package) == before


def test_a_killed_run_s_staging_folder_is_removed_by_the_next_run(tmp_path, capsys):
    """SIGKILL leaves no chance to clean up: the next run in the folder removes what the killed one staged."""
    out = tmp_path / "out"
    killed = subprocess.Popen([sys.executable, "-m", "engine.cli.main", *arguments(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120   # only against waiting forever: the staging folder appears within seconds
    while not list(out.glob(".hybrid-staging-*")) and time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.01)
    staged = list(out.glob(".hybrid-staging-*"))
    killed.kill()
    assert killed.wait(10) == -signal.SIGKILL and len(staged) == 1 and staged[0].is_dir()
    assert main(arguments(out)) == 0
    assert f"removed {staged[0].name}, the unfinished files of an earlier run that was killed" in capsys.readouterr().out
    written = json.loads((out / "manifest.json").read_text())["files"]
    assert {p.name for p in out.iterdir()} == set(written) | {"manifest.json"}


def test_the_staging_folder_of_a_killed_process_not_yet_reaped_is_removed(tmp_path):
    """A Dask worker killed mid-trial is a zombie (or still exiting) for a moment after its trial was given to another
    worker: os.kill(pid, 0) still finds it, yet its staging folder is stale."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        os.kill(child.pid, signal.SIGKILL)
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)        # it has exited; not reaped: a zombie
        os.kill(child.pid, 0)                                            # still found
        assert Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
        out = tmp_path / "out"
        stale, alive = out / f".hybrid-staging-{child.pid}-x", out / f".hybrid-staging-{os.getppid()}-y"
        stale.mkdir(parents=True)
        alive.mkdir()
        said = []
        with output_folder(out, said=said) as staging:
            (staging / "a.txt").write_text("a\n")
        assert said == [f"removed {stale.name}, the unfinished files of an earlier run that was killed"]
        assert sorted(p.name for p in out.iterdir()) == sorted(["a.txt", "manifest.json", alive.name])
    finally:
        child.kill()
        child.wait()
