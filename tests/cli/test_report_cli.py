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
