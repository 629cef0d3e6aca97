"""Hypothesis strategies shared by the readers' property tests: mutations of a valid file's text."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
NOISE = st.sampled_from(["\t", "\n", "\r\n", " ", "", "0", "-", ".", "e", "nan", "inf", "1e400", "NaN", "=", "x",
                         "endheader", "\t\t", "1_0", "\x00", "é", "-1", "<", ">", "</", '"', ":", "&", "*a", "[",
                         "{", "!!", "- ", "\ufeff"])


def head(text: str, lines: int) -> str:
    return "\n".join(text.splitlines()[:lines]) + "\n"


@st.composite
def mutated_text(draw, seed: str):
    """``seed`` with a few deletions, insertions, replacements, line duplications or a truncation."""
    text = seed
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "duplicate_line", "truncate", "swap_lines"]))
        n = len(text)
        if n == 0:
            break
        i = draw(st.integers(0, n - 1))
        if kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:i] + draw(NOISE) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(NOISE) + text[i + 1:]
        elif kind == "truncate":
            text = text[:i]
        else:
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if kind == "duplicate_line":
                lines.insert(b, lines[a])
            else:
                lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text
