"""A marker file's time span from its header alone (``read_trc_span``, ``read_c3d_span``, which size a study's tasks):
the first time, rate and frame count the full readers give for the same files, Intel and DEC C3D alike, also C3D files
whose first frame is not 1."""
import pytest

from engine.errors import DataError
from engine.io.c3d import read_c3d, read_c3d_span
from engine.io.trc import read_trc, read_trc_span

TRC = ["opensim/gait2354/subject01_walk1.trc", "opensim/gait10dof18musc/subject01_walk.trc",
       "opensim/arm26/arm26_elbow_flex.trc", "opensim/coupled_knee/coupled_knee.trc"]
C3D = ["c3d/Sample01/Eb015pi.c3d", "c3d/Sample01/Eb015vr.c3d", "c3d/Sample02/dec_int.c3d",
       "c3d/Sample26/Capture0002.c3d", "c3d/Sample26/Walking_Hybrid_1_1.c3d"]
"""Sample26's files start at frames 244 and 290 (the others at 1): their first time is not 0."""


@pytest.mark.parametrize("name", TRC)
def test_a_trc_header_gives_the_span_the_reader_reads(test_data, name):
    markers = read_trc(test_data / name).markers
    assert read_trc_span(test_data / name) == (markers.time[0], markers.rate, len(markers.time))


@pytest.mark.parametrize("name", C3D)
def test_a_c3d_header_gives_the_span_the_reader_reads(test_data, name):
    markers = read_c3d(test_data / name).markers
    t0, rate, frames = read_c3d_span(test_data / name)
    assert (rate, frames) == (markers.rate, len(markers.time)) and t0 == pytest.approx(markers.time[0], abs=1e-12)


def test_a_file_that_is_no_trc_is_refused_naming_it(tmp_path):
    path = tmp_path / "bad.trc"
    path.write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    with pytest.raises(DataError, match="bad.trc"):
        read_trc_span(path)
