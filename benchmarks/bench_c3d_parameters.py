"""What ``hybrid study init`` pays to read the subjects' heights and masses from their C3D files: the parameters of
the C3D files of tests/data (11 readable ones, 80 kB to 320 kB; Sample02's SGI file is refused before any process) read

- per_file: each with ``read_c3d`` (one reader process per file, the data converted too), as study init did;
- one_process: all with ``read_c3d_parameters`` (one reader process for them all), as it does now;
- parse: ezc3d parsing them in this process (what one process spends on the files themselves; ezc3d 1.7.2 has no
  reading of a file's header and parameters without its data: ``ezc3d.c3d(path, extract_forceplat_data,
  ignore_bad_formatting, keep_trailing_spaces)``, its C++ Header and Parameters constructors want a std::fstream).

``--rounds`` rounds (default 5), the three in turn; the medians, in seconds for the whole set, and per file.
Last line: RESULT per_file_s=.. one_process_s=.. parse_s=.. files=N speedup=R load=L
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.errors import DataError  # noqa: E402
from engine.io.c3d import read_c3d, read_c3d_parameters  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    files = sorted(p for p in (ROOT / "tests" / "data" / "c3d").rglob("*") if p.suffix.lower() == ".c3d")
    readable = []
    for path in files:
        try:
            read_c3d(path)
            readable.append(path)
        except DataError:
            pass
    import ezc3d
    times = {"per_file": [], "one_process": [], "parse": []}
    for _ in range(rounds):
        start = time.perf_counter()
        for path in readable:
            read_c3d(path)
        times["per_file"].append(time.perf_counter() - start)
        start = time.perf_counter()
        read = read_c3d_parameters(readable)
        times["one_process"].append(time.perf_counter() - start)
        assert not any(isinstance(r, DataError) for r in read)
        start = time.perf_counter()
        for path in readable:
            ezc3d.c3d(str(path))
        times["parse"].append(time.perf_counter() - start)
    median = {k: statistics.median(v) for k, v in times.items()}
    n = len(readable)
    for key, value in median.items():
        print(f"{key:12s} {value:.3f} s for {n} files, {value / n * 1000:.0f} ms a file "
              f"(rounds: {', '.join(f'{t:.2f}' for t in times[key])})")
    print(f"RESULT per_file_s={median['per_file']:.3f} one_process_s={median['one_process']:.3f} "
          f"parse_s={median['parse']:.3f} files={n} speedup={median['per_file'] / median['one_process']:.1f} "
          f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
