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


def test_a_session_s_report_options_are_its_report_s(tmp_path, report_options_asked):
    """``hybrid report SESSION.hls`` gives the report's sections the session's options (the application's socket
    liner, ``Session.report``); a results file has none."""
    from engine.demo import demo_results
    from engine.io.session_file import Session, save_session
    result, settings = demo_results()
    session = tmp_path / "work.hls"
    save_session(session, Session(model=result.model, trial=result.trial, settings=settings, result=result,
                                  report={"socket-pressure": {"friction": 0.61}}))
    asked = report_options_asked
    assert main(["report", str(session), str(demo_files().results), "--out", str(tmp_path / "r.pdf")]) == 0
    assert asked == [[{"socket-pressure": {"friction": 0.61}}, {}]]


def test_a_session_with_damaged_report_options_is_refused(tmp_path):
    from engine.io.session_file import Session, load_session, save_session
    path = tmp_path / "damaged.hls"
    save_session(path, Session(report={"socket-pressure": 0.61}))
    with pytest.raises(DataError, match=r"damaged.hls.*report options are damaged"):
        load_session(path)


@pytest.mark.parametrize("bad, words", [
    ({"friction": "0.6"}, "friction must be a finite non-negative number or none, got '0.6'"),
    ({"frction": 0.6}, "has no option 'frction'"),
    ({"friction": -1}, "friction must be a finite non-negative number or none, got -1"),
    ({"thickness": True}, "thickness must be a positive number, got True")])
def test_hybrid_report_refuses_a_session_with_a_damaged_socket_option(tmp_path, capsys, bad, words):
    """A session's socket liner option that is not a number, misspelt or out of range is refused when the session is
    read (by the section's options entry point, ``engine.io.report_sections.checked_options``), naming the session file
    and the option; no report is written (it reached the section as keyword arguments: a TypeError or a note)."""
    from engine.io.session_file import Session, save_session
    path = tmp_path / "damaged.hls"
    save_session(path, Session(report={"socket-pressure": bad}))
    out = tmp_path / "report.pdf"
    assert main(["report", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "damaged.hls" in err and "report option socket-pressure" in err and words in err, err
    assert not out.exists()


def test_the_socket_liner_s_arguments_replace_a_session_s_for_every_file(tmp_path, report_options_asked, capsys):
    """``hybrid report`` takes the socket liner's arguments of ``hybrid socket-pressure`` (defined once, by skin's
    entry point ``hybridlab.report_options``): those given, in SI, replace the session's own options of the socket
    section and reach a results file's too; those not given leave the session's; a bad value is refused naming the
    argument."""
    from engine.demo import demo_results
    from engine.io.session_file import Session, save_session
    result, settings = demo_results()
    session = tmp_path / "work.hls"
    save_session(session, Session(model=result.model, trial=result.trial, settings=settings, result=result,
                                  report={"socket-pressure": {"friction": 0.61, "fit": 10e3}, "other": {"a": 1}}))
    asked = report_options_asked
    files = [str(session), str(demo_files().results), "--out", str(tmp_path / "r.pdf")]
    assert main(["report", *files, "--tissue", "20", "--tissue-modulus", "141", "--fit", "40", "--liner", "4"]) == 0
    given = {"tissue": 20 * 1e-3, "tissue_modulus": 141e3, "fit": 40e3, "thickness": 4 * 1e-3}
    assert asked.pop() == [{"socket-pressure": {"friction": 0.61, **given}, "other": {"a": 1}},
                           {"socket-pressure": given}]
    assert main(["report", *files, "--friction", "0.3"]) == 0
    assert asked.pop() == [{"socket-pressure": {"friction": 0.3, "fit": 10e3}, "other": {"a": 1}},
                           {"socket-pressure": {"friction": 0.3}}]
    assert main(["report", *files]) == 0
    assert asked.pop() == [{"socket-pressure": {"friction": 0.61, "fit": 10e3}, "other": {"a": 1}}, {}]
    assert main(["report", *files, "--friction", "none"]) == 0            # the bonded liner in place of the session's
    assert asked.pop() == [{"socket-pressure": {"friction": None, "fit": 10e3}, "other": {"a": 1}},
                           {"socket-pressure": {"friction": None}}]
    capsys.readouterr()
    assert main(["report", *files, "--tissue", "-1"]) == 2
    assert "--tissue must be finite and non-negative, got -1.0" in capsys.readouterr().err
    assert asked == []


def test_the_report_draws_the_socket_liner_given(tmp_path):
    """The demo's report with ``--tissue 20 --fit 40``: its socket page and notes name that liner, as ``hybrid
    socket-pressure`` names it (tests/skin test that the section's map is the socket model's with these options)."""
    import re
    out = tmp_path / "report.html"
    assert main(["report", str(demo_files().results), "--out", str(out), "--tissue", "20", "--fit", "40"]) == 0
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")))
    assert ("liner 6 mm at 0.4 MPa bonded to the skin on 20 mm of soft tissue at 100 kPa, pre-compressed to a nominal "
            "40 kPa") in text
