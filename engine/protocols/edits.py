"""A matching (``engine.protocols.matching``) as the table the user reads and edits: each trial label with the
protocol marker it is matched to, that marker's landmark and the model body it sits on, and its status; the user's
edits (a label given another marker, or cleared) applied to a matching. The application shows the table; the edits
are kept with the session and used by the next analysis (``engine.demo.for_trial.model_for_trial``)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import DataError
from .description import full_name
from .matching import BY_ALIAS, BY_ALTERNATIVE, BY_GEOMETRY, BY_NAME, Matching

# a matched label's status says how it was matched (engine.protocols.matching.Matching.how)
NAME, ALIAS, GEOMETRY, ALTERNATIVE = BY_NAME, BY_ALIAS, BY_GEOMETRY, BY_ALTERNATIVE
UNMATCHED, REJECTED, EDITED = "unmatched", "rejected by geometry", "set by the user"
GEOMETRY_REASON = "read as "       # how confirm_by_geometry's reasons start
CLEARED = "cleared by the user"


@dataclass(frozen=True)
class MatchRow:
    """One trial label: the protocol marker's full name (None if unmatched), its landmark and the model body it is
    placed on (None when the model lacks the landmark), the status (how it was matched: :data:`NAME`, :data:`ALIAS`,
    :data:`GEOMETRY`, :data:`ALTERNATIVE`, or :data:`EDITED`; else :data:`UNMATCHED` or :data:`REJECTED`) and why."""

    label: str
    marker: str | None
    landmark: str | None
    body: str | None
    status: str
    why: str = ""


def choices(protocol, catalogue: dict) -> dict:
    """``{full name: (protocol marker name, side)}`` of every marker a label can be given (sided landmarks on each
    side; a technical marker of an unsided landmark also on either side), in the protocol's order."""
    out = {}
    for m in protocol.markers:
        sided = catalogue[m.landmark].sided
        for side in (("R", "L") if sided else ((None, "R", "L") if m.technical else (None,))):
            out[full_name(m.name, side)] = (m.name, side)
    return out


def edited_matching(matching: Matching, edits: dict, labels, catalogue: dict) -> Matching:
    """``matching`` with the user's ``edits`` (``{trial label: full marker name, or None to clear}``) applied;
    ``labels`` the trial's labels (their order is kept). DataError naming the label for a label the trial does not
    have, a marker the protocol does not have, or one marker given to two labels."""
    labels = list(labels)
    options = choices(matching.protocol, catalogue)
    for label, full in edits.items():
        if label not in labels:
            raise DataError(f"the trial has no marker labelled {label!r}", element=f"marker matching, '{label}'")
        if full is not None and full not in options:
            raise DataError(f"protocol '{matching.protocol.name}' has no marker {full!r}",
                            element=f"marker matching, '{label}'")
    chosen = {label: edits.get(label, matching.labels.get(label)) for label in labels}
    owners: dict = {}
    for label, full in chosen.items():
        if full is not None:
            owners.setdefault(full, []).append(label)
    twice = {full: who for full, who in owners.items() if len(who) > 1}
    if twice:
        full, who = next(iter(twice.items()))
        raise DataError(f"{full} is given to {len(who)} labels ({', '.join(who)}); give it to one",
                        element=f"marker matching, '{who[-1]}'")
    reasons = dict(matching.unmatched)
    matched = {label: full for label, full in chosen.items() if full is not None}
    unmatched = tuple((label, CLEARED if label in edits else reasons.get(label, "matches no marker of the protocol"))
                      for label in labels if label not in matched)
    said = ", ".join(f"{label}={full or 'none'}" for label, full in edits.items())
    how = {label: matching.how[label] for label, full in matched.items()
           if label not in edits and label in matching.how and matching.labels.get(label) == full}
    return Matching(matching.protocol, matched, {full: options[full] for full in matched.values()}, unmatched,
                    matching.scale, matching.notes + ((f"marker matching edited by the user: {said}",) if edits else ()),
                    how)


def match_rows(matching: Matching, labels, catalogue: dict, points: dict, edits: dict | None = None) -> list:
    """The :class:`MatchRow` of each of the trial's ``labels``; ``points`` the model's landmarks
    (``Placements.points``), ``edits`` the user's (their rows say so)."""
    edits = edits or {}
    reasons = dict(matching.unmatched)
    rows = []
    for label in labels:
        full = matching.labels.get(label)
        if full is None:
            why = reasons.get(label, "matches no marker of the protocol")
            status = (EDITED if label in edits else REJECTED if why.startswith(GEOMETRY_REASON) else UNMATCHED)
            rows.append(MatchRow(label, None, None, None, status, why))
            continue
        name, side = matching.used[full]
        landmark = matching.protocol.marker(name).landmark
        where = points.get((landmark, side if catalogue[landmark].sided else None))
        status, why = (EDITED, f"set to {full} by the user") if label in edits else matching.how[label]
        rows.append(MatchRow(label, full, landmark, None if where is None else where[0], status, why))
    return rows
