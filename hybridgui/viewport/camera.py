"""Camera presets around the subject (sagittal, frontal, top, and an oblique overview from the right, front and
above, the first view of a trial), following the subject, and the camera state that sessions save."""
from __future__ import annotations

import numpy as np

PRESETS = ("sagittal", "frontal", "top", "oblique")


class CameraRig:
    """Moves ``renderer``'s camera; ``axes`` are the lab's vertical, anterior-posterior and medio-lateral
    unit vectors (``engine.analysis.metrics.axes_of``)."""

    def __init__(self, renderer, axes):
        self.renderer = renderer
        self.axes = axes
        self.following = False

    @property
    def camera(self):
        return self.renderer.GetActiveCamera()

    def look(self, preset: str, bounds) -> None:
        """View ``bounds`` (xmin, xmax, ymin, ymax, zmin, zmax) from the ``preset`` direction, framed snugly."""
        up, ap, ml = self.axes["vertical"], self.axes["ap"], self.axes["ml"]
        oblique = ml + 0.45 * ap + 0.35 * up
        direction, view_up = {"sagittal": (ml, up), "frontal": (ap, up), "top": (up, ap),
                              "oblique": (oblique / np.linalg.norm(oblique), up)}[preset]
        centre = np.array([bounds[0] + bounds[1], bounds[2] + bounds[3], bounds[4] + bounds[5]]) / 2
        camera = self.camera
        camera.SetFocalPoint(*centre)
        camera.SetPosition(*(centre + direction))
        camera.SetViewUp(*view_up)
        camera.SetViewAngle(30.0)
        self.renderer.ResetCamera(bounds)
        camera.Dolly(1.15)
        self.renderer.ResetCameraClippingRange()

    def follow(self, shift) -> None:
        """Move the camera by ``shift`` (3,) m along the floor (its vertical part is ignored)."""
        up = self.axes["vertical"]
        d = np.asarray(shift, float) - np.dot(shift, up) * up
        camera = self.camera
        camera.SetFocalPoint(*(np.array(camera.GetFocalPoint()) + d))
        camera.SetPosition(*(np.array(camera.GetPosition()) + d))
        self.renderer.ResetCameraClippingRange()

    def state(self) -> dict:
        """Position, focal point, view up (m) and view angle (deg), and whether the camera follows."""
        c = self.camera
        return {"position": list(c.GetPosition()), "focal_point": list(c.GetFocalPoint()),
                "view_up": list(c.GetViewUp()), "view_angle": float(c.GetViewAngle()), "follow": self.following}

    def restore(self, state: dict) -> None:
        c = self.camera
        c.SetPosition(*state["position"])
        c.SetFocalPoint(*state["focal_point"])
        c.SetViewUp(*state["view_up"])
        c.SetViewAngle(state["view_angle"])
        self.following = bool(state.get("follow", False))
        self.renderer.ResetCameraClippingRange()
