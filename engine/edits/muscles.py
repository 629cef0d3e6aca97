"""Edits of a model's muscles for amputation modelling (seed section 2.4.2), each undoable.

An edit is a small frozen object; ``edit.apply(model)`` returns an
:class:`Applied` pair: the new model and a :class:`Change` recording what was
replaced (the previous muscle and wrap objects, and the previous metadata), so
that ``change.undo(new_model)`` gives back the model before the edit. Models
never change; every edit makes a new one (``Model.replace``).

Every edit also appends a plain-data record to ``model.metadata["muscle_edits"]``
(saved with the model file): the edit, the muscle, the reason and, for a
muscle that is removed or re-routed, its original description in the model
file's own form (SI units), so the saved file says what the surgery changed.

A muscle *transected with no attachment* (e.g. the anterior compartment after
a transtibial amputation) no longer transmits force between bodies: its distal
stump is free. It is therefore taken out of ``model.muscles`` (it cannot take
part in muscle-force estimation), and its original data stays in the record.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ModelError
from ..io.model_schema import write_model
from ..model.muscles import GeometryPath, PathPoint, PathWrap, WrapObject

RECORDS = "muscle_edits"


@dataclass(frozen=True)
class Change:
    """What one edit changed: ``(index, before, after)`` for muscles and wrap objects (``None`` where an
    item was added or removed) and the metadata before the edit."""

    edit: object
    muscles: tuple = ()
    wrap_objects: tuple = ()
    metadata: dict = field(default_factory=dict)

    def undo(self, model):
        """The model before the edit, from the model right after it.

        Raises
        ------
        ModelError
            If ``model`` no longer holds what the edit made (it was edited again since).
        """
        return model.replace(muscles=_restore(model.muscles, self.muscles, "muscle"),
                             wrap_objects=_restore(model.wrap_objects, self.wrap_objects, "wrap object"),
                             metadata=self.metadata)


@dataclass(frozen=True)
class Applied:
    """The result of an edit: the new ``model`` and the ``change`` that undoes it."""

    model: object
    change: Change


def _restore(items: tuple, changes: tuple, kind: str) -> tuple:
    items = list(items)
    for index, before, after in reversed(changes):
        if after is not None:
            if index >= len(items) or items[index] != after:
                raise ModelError(f"cannot undo: the {kind} '{after.name}' made by the edit is not where the edit put "
                                 "it (undo later edits first)", f"{kind} '{after.name}'")
            del items[index]
        if before is not None:
            if any(item.name == before.name for item in items):
                raise ModelError(f"cannot undo: the model already has a {kind} named '{before.name}' (undo later "
                                 "edits first)", f"{kind} '{before.name}'")
            items.insert(index, before)
    return tuple(items)


def _record(model, entry: dict) -> dict:
    metadata = dict(model.metadata)
    metadata[RECORDS] = list(metadata.get(RECORDS, [])) + [entry]
    return metadata


def _original(model, name: str) -> dict:
    """The muscle's description as the model file writes it (plain data, SI units)."""
    return next(m for m in write_model(model)["muscles"] if m["name"] == name)


def _find(model, name: str) -> int:
    for i, m in enumerate(model.muscles):
        if m.name == name:
            return i
    raise ModelError(f"no muscle named {name!r} in the model", f"model '{model.name}'")


@dataclass(frozen=True)
class RemoveMuscle:
    """Take a muscle out of the model (e.g. a muscle resected in surgery); ``reason`` goes into the record."""

    name: str
    reason: str = "removed"

    kind = "remove"

    def apply(self, model) -> Applied:
        i = _find(model, self.name)
        entry = {"edit": self.kind, "muscle": self.name, "reason": self.reason,
                 "original": _original(model, self.name)}
        new = model.replace(muscles=model.muscles[:i] + model.muscles[i + 1:], metadata=_record(model, entry))
        return Applied(new, Change(self, muscles=((i, model.muscles[i], None),), metadata=model.metadata))


@dataclass(frozen=True)
class TransectMuscle(RemoveMuscle):
    """Transect a muscle with no attachment: it no longer acts between bodies, so it leaves
    ``model.muscles``; the record keeps its original data (see the module notes)."""

    reason: str = "transected with no attachment"

    kind = "transect"


@dataclass(frozen=True)
class AddWrapObject:
    """Add a wrap surface (e.g. a cylinder at the end of a residual tibia) for re-routed muscles."""

    wrap_object: WrapObject

    kind = "add_wrap_object"

    def apply(self, model) -> Applied:
        wo = self.wrap_object
        if not isinstance(wo, WrapObject):
            raise ModelError(f"needs a wrap object, got {type(wo).__name__}", "add wrap object")
        entry = {"edit": self.kind, "wrap_object": wo.name, "body": wo.body}
        new = model.replace(wrap_objects=model.wrap_objects + (wo,), metadata=_record(model, entry))
        return Applied(new, Change(self, wrap_objects=((len(model.wrap_objects), None, wo),),
                                   metadata=model.metadata))


@dataclass(frozen=True)
class ReattachMuscle:
    """Transect a muscle after its path point ``keep_through`` and secure it to ``attachment``
    (a path point on another body, e.g. the anterior face of the residual tibia), through the
    optional ``via`` points, optionally wrapping over ``wrap`` (a :class:`PathWrap` over a wrap
    object of the model, e.g. one added by :class:`AddWrapObject`).

    The points from the origin to ``keep_through`` stay; the rest of the path is replaced.
    Path wraps of the original path stay only if their point range lies within the kept
    points; the others are dropped (the record lists them). ``wrap`` applies to the whole
    new path unless its range says otherwise.
    """

    name: str
    keep_through: str
    attachment: PathPoint
    via: tuple = ()
    wrap: PathWrap | None = None
    reason: str = "transected and re-attached"

    kind = "reattach"

    def apply(self, model) -> Applied:
        i = _find(model, self.name)
        old = model.muscles[i]
        what = f"muscle '{self.name}'"
        names = [p.name for p in old.path.points]
        if self.keep_through not in names:
            raise ModelError(f"has no path point {self.keep_through!r} to keep (its points: {', '.join(names)})",
                             what)
        kept = old.path.points[:names.index(self.keep_through) + 1]
        new_points = tuple(self.via) + (self.attachment,)
        for p in new_points:
            if not isinstance(p, PathPoint):
                raise ModelError(f"via points and the attachment must be PathPoint objects, got {type(p).__name__}",
                                 what)
        wraps, dropped = [], []
        for w in old.path.wraps:
            lo, hi = w.range
            (wraps if 1 <= lo and 1 <= hi <= len(kept) else dropped).append(w)
        if self.wrap is not None:
            wraps.append(self.wrap)
        path = GeometryPath(kept + new_points, tuple(wraps))
        new_muscle = type(old)(**{**{f: getattr(old, f) for f in old.__dataclass_fields__}, "path": path})
        entry = {"edit": self.kind, "muscle": self.name, "reason": self.reason, "kept_through": self.keep_through,
                 "new_points": [p.name for p in new_points],
                 "wrap": None if self.wrap is None else self.wrap.wrap_object,
                 "dropped_wraps": [w.wrap_object for w in dropped], "original": _original(model, self.name)}
        new = model.replace(muscles=model.muscles[:i] + (new_muscle,) + model.muscles[i + 1:],
                            metadata=_record(model, entry))
        return Applied(new, Change(self, muscles=((i, old, new_muscle),), metadata=model.metadata))


def apply_edits(model, edits) -> tuple:
    """Apply ``edits`` in order; returns ``(model, changes)``. Undo with :func:`undo_edits`."""
    changes = []
    for edit in edits:
        applied = edit.apply(model)
        model = applied.model
        changes.append(applied.change)
    return model, changes


def undo_edits(model, changes):
    """Undo ``changes`` (as returned by :func:`apply_edits`), last first."""
    for change in reversed(changes):
        model = change.undo(model)
    return model
