"""Time to refuse small hostile files (issue 18), each read by the project's own reader from a temporary folder:
a YAML "billion laughs" of aliases as a model file, an .osim nested 5000 deep, an IK setup declaring nested XML
entities, and a results file whose 512 MB of zeros pack into 0.5 MB. The median of 20 refusals after one warm-up
(imports, caches), by the wall clock and in CPU seconds of this process. (The tests in tests/io/test_bounded_parsing.py
and tests/io/test_results_file.py check the properties behind the speed: what is built, read or unpacked before the
refusal.)

Run: ``.venv/bin/python benchmarks/bench_refusals.py``.
Last line: RESULT yaml_alias_bomb_ms=.. yaml_alias_bomb_cpu_ms=.. deep_osim_ms=.. ... (each refusal wall, then CPU)
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import paired_timings  # noqa: E402
from engine.errors import HybridLabError  # noqa: E402
from engine.io.model_file import load_model  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.io.results_file import load_result  # noqa: E402
from engine.io.setup_xml import read_ik_setup  # noqa: E402


def hostile_files(folder: Path) -> dict:
    """{name: (reader, path)} of the hostile files written into ``folder``."""
    bomb = ['a0: &a0 ["lol"]'] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 13)]
    (folder / "bomb.yaml").write_text("format: hybridlab-model\nversion: 1\n" + "\n".join(bomb) + "\n")
    (folder / "deep.osim").write_text('<OpenSimDocument Version="40000"><Model name="m">' + "<a>" * 5000
                                      + "</a>" * 5000 + "</Model></OpenSimDocument>")
    entities = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    (folder / "laughs.xml").write_text(f'<?xml version="1.0"?><!DOCTYPE r [{entities}]><OpenSimDocument>'
                                       "<InverseKinematicsTool><model_file>&a9;</model_file></InverseKinematicsTool>"
                                       "</OpenSimDocument>")
    with zipfile.ZipFile(folder / "bomb.hlr", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("document.yaml", "format: hybridlab-result\nversion: 2\ncontents: {x: {array: arrays/0.npy}}\n")
        with archive.open("arrays/0.npy", "w", force_zip64=True) as member:
            for _ in range(32):
                member.write(bytes(2 ** 24))
    return {"yaml_alias_bomb": (load_model, folder / "bomb.yaml"), "deep_osim": (read_osim, folder / "deep.osim"),
            "xml_entities": (read_ik_setup, folder / "laughs.xml"), "zip_bomb": (load_result, folder / "bomb.hlr")}


def refusal(read, path):
    def refuse():
        try:
            read(path)
        except HybridLabError:
            return
        raise SystemExit(f"{path.name} was read, not refused")
    return refuse


def main() -> None:
    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, (read, path) in hostile_files(Path(folder)).items():
            wall, cpu = paired_timings(refusal(read, path), 20)
            figures[name] = 1e3 * statistics.median(wall)
            figures[f"{name}_cpu"] = 1e3 * statistics.median(cpu)
            print(f"{name}: {path.stat().st_size} bytes refused in {figures[name]:.2f} ms "
                  f"({figures[f'{name}_cpu']:.2f} ms of CPU)")
    print("RESULT " + " ".join(f"{name}_ms={value:.2f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
