"""Property tests, one per reader: any byte string, and any few mutations of a valid file, give a result or
HybridLab's own error (engine.errors.HybridLabError, naming the file), never another exception.

Readers: TRC, MOT/STO, Motion Analysis ANC, OpenSim .osim (4.x and 3.x), our model YAML, contact files,
OpenSim ExternalLoads and IK setup XML, and C3D through its child-process reader (few examples: each starts a
child). Example counts are kept small for the suite's time budget.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import HybridLabError
from engine.io.anc import read_anc
from engine.io.c3d import read_c3d
from engine.io.contacts_file import load_contacts
from engine.io.external_loads import load_external_loads
from engine.io.model_file import load_model, save_model
from engine.io.osim import read_osim
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.io.storage import read_storage
from engine.io.trc import read_trc
from tests.io.fuzzing import FUZZ, head, mutated_text

ANC = ("File_Type:\tAnalog R/C ASCII\tGeneration#:\t1\nBoard_Type:\tNI\tPolarity:\tBipolar\n"
       "Trial_Name:\tt\tTrial#:\t1\tDuration(Sec.):\t0.003\t#Channels:\t2\nBitsPerChannel:\t16\tPreciseRate:\t"
       "1000.000\n\nName\tF1Z\tEMG1\nRate\t1000\t1000\nRange\t10000\t5000\n0.000\t12\t-3\n0.001\t-40\t7\n"
       "0.002\t0\t32767\n")
BYTES = st.binary(max_size=600) | st.text(max_size=300).map(str.encode)


@pytest.fixture(scope="module")
def seeds(test_data, tmp_path_factory):
    """Valid files of every kind (text), and the model and table some readers need beside them."""
    opensim = test_data / "opensim"
    knee = read_osim(opensim / "coupled_knee" / "coupled_knee.osim")
    folder = tmp_path_factory.mktemp("seeds")
    save_model(knee, folder / "knee.yaml")
    gait = read_osim(opensim / "gait2354" / "subject01_simbody.osim")
    return Seeds({
        "trc": head((opensim / "coupled_knee" / "coupled_knee.trc").read_text(), 16).replace("\t41\t11\t", "\t10\t11\t"),
        "mot": head((opensim / "coupled_knee" / "reference" / "ik.mot").read_text(), 24).replace("nRows=41",
                                                                                              "nRows=13"),
        "anc": ANC,
        "osim": (opensim / "coupled_knee" / "coupled_knee.osim").read_text(),
        "osim3": (opensim / "coupled_knee" / "coupled_knee_v3.osim").read_text(),
        "yaml": (folder / "knee.yaml").read_text(),
        "contacts": (test_data.parent / "analysis" / "data" / "gait2354_contacts.yaml").read_text(),
        "loads": (opensim / "gait2354" / "subject01_walk1_grf.xml").read_text(),
        "ik_setup": (opensim / "gait2354" / "subject01_Setup_IK.xml").read_text(),
        "gait": gait,
        "grf": read_storage(opensim / "gait2354" / "subject01_walk1_grf.mot"),
    })


class Seeds(dict):
    def __repr__(self):   # keeps hypothesis' failure reports short
        return "seeds"


def readers(seeds):
    """kind -> (file suffix, reader of a path)."""
    def ik_setup(path):
        return ik_settings_from_setup(seeds["gait"], read_ik_setup(path))
    return {
        "trc": (".trc", read_trc), "mot": (".mot", read_storage), "anc": (".anc", read_anc),
        "osim": (".osim", read_osim), "osim3": (".osim", read_osim), "yaml": (".yaml", load_model),
        "contacts": (".yaml", lambda path: load_contacts(path, seeds["gait"])),
        "loads": (".xml", lambda path: load_external_loads(path, data=seeds["grf"])),
        "ik_setup": (".xml", ik_setup),
    }


KINDS = ["trc", "mot", "anc", "osim", "osim3", "yaml", "contacts", "loads", "ik_setup"]


def check(kind, seeds, folder, content: bytes):
    suffix, reader = readers(seeds)[kind]
    path = folder / f"fuzz_{kind}{suffix}"
    path.write_bytes(content)
    try:
        reader(path)
    except HybridLabError as err:   # naming the file, or the data file the ExternalLoads' columns are read from
        assert err.file in (None, str(path), seeds["grf"].source), (err.file, str(path))


@pytest.fixture(scope="module")
def work_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz_readers")


@pytest.mark.parametrize("kind", KINDS)
def test_every_seed_reads(kind, seeds, work_dir):
    suffix, reader = readers(seeds)[kind]
    path = work_dir / f"seed_{kind}{suffix}"
    path.write_text(seeds[kind])
    assert reader(path) is not None


@pytest.mark.parametrize("kind", KINDS)
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_any_bytes(kind, seeds, work_dir, data):
    check(kind, seeds, work_dir, data.draw(BYTES))


@pytest.mark.parametrize("kind", KINDS)
@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_mutations_of_a_valid_file(kind, seeds, work_dir, data):
    check(kind, seeds, work_dir, data.draw(mutated_text(seeds[kind])).encode("utf-8", errors="surrogatepass"))


@settings(FUZZ, max_examples=6)
@given(content=st.binary(max_size=2048))
def test_any_bytes_as_c3d(work_dir, content):
    path = work_dir / "fuzz.c3d"
    path.write_bytes(content)
    try:
        read_c3d(path, timeout=30, memory_limit=256 * 2 ** 20)
    except HybridLabError as err:
        assert err.file == str(path)
