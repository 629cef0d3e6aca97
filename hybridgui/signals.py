"""The document's signals: psygnal's, except that a listener's error does not stop the listeners after it (Qt's
signals call every slot whatever one of them raises; psygnal's stop at the first error). The first error is still
raised, wrapped in psygnal's ``EmitLoopError`` (``error_dialog.original`` unwraps it), once every listener has
been called; the errors of later listeners are added to it as notes.

psygnal has no option for this, so the emit loop of its SignalInstance (``_run_emit_loop_immediate``, the default
reemission mode's, run under the signal's lock) is replaced; it reads psygnal's slots as that loop does, which is
why pyproject.toml holds psygnal to one minor version."""
from __future__ import annotations

import traceback

from psygnal import Signal, SignalInstance


class EveryListenerSignalInstance(SignalInstance):
    """A SignalInstance that calls every listener even when one raises, then raises the first error."""

    def _run_emit_loop_immediate(self) -> None:
        args = self._emit_queue.popleft()
        errors: list[Exception] = []
        for caller in list(self._slots):
            if caller._is_alive():
                try:
                    caller.cb(args)
                except Exception as exc:      # raised below, after the other listeners
                    errors.append(exc)
        if errors:
            first = errors[0]
            for later in errors[1:]:
                first.add_note("another listener also failed:\n" + "".join(traceback.format_exception(later)))
            raise first


def signal(*types) -> Signal:
    """A psygnal ``Signal`` of ``types`` whose listeners are all called even when one raises."""
    return Signal(*types, signal_instance_class=EveryListenerSignalInstance)
