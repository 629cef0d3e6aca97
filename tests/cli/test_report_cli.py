"""``hybrid report``: the demo's results file to PDF; a file that is neither results nor session is refused."""
import pytest

from engine.cli.main import main
from engine.demo import demo_files
from engine.errors import DataError


def test_report_of_the_demo_results(tmp_path, capsys):
    out = tmp_path / "report.pdf"
    assert main(["report", str(demo_files().results), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF") and out.stat().st_size > 20_000
    assert "wrote" in capsys.readouterr().out


def test_report_of_a_file_that_is_not_a_result(tmp_path):
    bad = tmp_path / "notes.hlr"
    bad.write_text("not an archive")
    with pytest.raises(DataError, match="notes.hlr"):
        from engine.cli.report import load_analysis
        load_analysis(bad)


def test_a_session_s_report_options_are_its_report_s(tmp_path, monkeypatch):
    """``hybrid report SESSION.hls`` gives the report's sections the session's options (the application's socket
    liner, ``Session.report``); a results file has none."""
    from engine.demo import demo_results
    from engine.io import report_file
    from engine.io.session_file import Session, save_session
    result, settings = demo_results()
    session = tmp_path / "work.hls"
    save_session(session, Session(model=result.model, trial=result.trial, settings=settings, result=result,
                                  report={"socket-pressure": {"friction": 0.61}}))
    asked = []

    def recorded(path, analyses, origins=None, settings=None, options=None):
        asked.append(options)
        return path
        yield

    monkeypatch.setattr(report_file, "trials_report_steps", recorded)
    assert main(["report", str(session), str(demo_files().results), "--out", str(tmp_path / "r.pdf")]) == 0
    assert asked == [[{"socket-pressure": {"friction": 0.61}}, {}]]


def test_a_session_with_damaged_report_options_is_refused(tmp_path):
    from engine.io.session_file import Session, load_session, save_session
    path = tmp_path / "damaged.hls"
    save_session(path, Session(report={"socket-pressure": 0.61}))
    with pytest.raises(DataError, match=r"damaged.hls.*report options are damaged"):
        load_session(path)
