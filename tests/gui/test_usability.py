"""Usability defects of issue 19: a lone .mot says what it holds and why it opens nothing; a cancelled run says
"cancelled" in place of its last stage; curves chosen on one trial stay chosen on another by what they mean."""
import pytest

from engine.progress import Progress
from hybridgui.curves.view import carried_selection, default_channels


def test_a_lone_mot_says_what_it_holds_and_why_it_opens_nothing(make_window, test_data):
    window = make_window()
    folder = test_data / "opensim" / "gait2354"
    window.open_paths([folder / "subject01_walk1_grf.mot"])
    message = window.statusBar().currentMessage()
    assert message.startswith("subject01_walk1_grf.mot holds ground reactions (GRF): it is not a trial on its own")
    assert "File > Open trial" in message and window.document.trial is None and window.last_error is None
    window.open_paths([folder / "subject01_walk1_ik.mot"])
    assert window.statusBar().currentMessage().startswith("subject01_walk1_ik.mot holds a motion of coordinates")
    window.open_paths([folder / "subject01_walk1_grf.xml"])
    assert "an OpenSim ExternalLoads file" in window.statusBar().currentMessage()


def test_a_cancelled_run_says_cancelled_not_its_last_stage(make_window):
    window = make_window()
    panel = window.progress
    panel.report(Progress("inverse kinematics", 0.3, "frame 40 of 200", None))     # a busy stage
    assert panel.message.text().startswith("inverse kinematics")
    window.runner.cancelled.emit()
    assert panel.message.text() == "cancelled; the results shown are unchanged"
    assert all(bar.maximum() > 0 for bar in panel.bars.values())                   # no bar left busy
    assert "cancelled" in window.statusBar().currentMessage()


def test_a_selection_made_on_another_trial_is_kept_by_meaning():
    # gait2354's contact groups and coordinates against the demo's (foot and blade)
    demo = ["foot_l vertical", "foot_l ap", "foot_l ml", "blade vertical", "blade ap", "blade ml"]
    assert carried_selection(["calcn_l vertical", "calcn_r ap"], demo) == ["foot_l vertical", "blade ap"]
    assert carried_selection(["foot_l vertical"], demo) == ["foot_l vertical"]          # same name: itself
    assert carried_selection(["hip_flexion_r", "knee_angle_r"], ["hip_flexion_l", "hip_flexion_r", "knee_angle_l",
                                                                  "knee_angle_r_beta"]) == ["hip_flexion_r",
                                                                                              "knee_angle_r_beta"]
    assert carried_selection(["pelvis_tilt"], ["hip_flexion_r"]) == []                   # no meaning in common


def test_switching_trials_keeps_the_curves_chosen(shown):
    window = shown
    view = window.curves
    view.restore_selection({"grf": ["calcn_l vertical"], "angles": ["no_such_coordinate"]})   # another trial's
    grf = view.panel("grf")
    assert grf.selected_channels() == ["foot_l vertical"] and grf.selected_series()
    angles = view.panel("angles")
    assert angles.selected_channels() == default_channels("angles", angles.channels) != []   # never an empty tab
    assert {s.channel for s in view.shown_series() if s.group == "grf"} == {"foot_l vertical"}


def test_one_colour_per_side_in_timeline_plots_report_and_figures(shown):
    from hybridgui import timeline
    from hybridgui.curves import panel
    from engine.io import report_figures
    rgb = {"Left": (0x1f, 0x5f, 0xbf), "Right": (0xc0, 0x39, 0x2b)}       # left blue, right red
    for side, (r, g, b) in rgb.items():
        assert timeline.SIDE_COLOURS[side].getRgb()[:3] == (r, g, b)
        assert panel.STANCE_BRUSH[side].getRgb()[:3] == (r, g, b)
        assert report_figures.COLOURS[side] == f"#{r:02x}{g:02x}{b:02x}"
    curves = shown.curves.current_panel()                                 # the exported figure's stance spans
    spans = curves.figure_plot("s", "t").spans
    assert spans and {c for _, _, c in spans} <= {report_figures.COLOURS["Left"], report_figures.COLOURS["Right"]}


def test_curves_are_coloured_by_side_and_styled_by_source(shown):
    from hybridgui.curves import panel as panel_module
    from engine.display.colours import SIDES
    grf = shown.curves.panel("grf")
    grf.select(["blade vertical", "foot_l vertical"])         # the right side chosen first: it stays red
    pens = {s.label: (grf._curves[s.label].opts["pen"].color().name(), grf._curves[s.label].opts["pen"].style())
            for s in grf.selected_series()}
    kinds = {s.label: s.kind for s in grf.selected_series()}
    channels = {s.label: s.channel for s in grf.selected_series()}
    assert {"measured", "estimated"} <= set(kinds.values())
    for label, (colour, style) in pens.items():
        assert colour == SIDES["Left" if channels[label] == "foot_l vertical" else "Right"], label
        assert style == panel_module.DASHES[panel_module.STYLES[kinds[label]]], label
    solid = {pens[label][1] for label in pens if kinds[label] == "measured"}
    dashed = {pens[label][1] for label in pens if kinds[label] == "estimated"}
    assert solid.isdisjoint(dashed)                                 # measured and estimated differ by line style
    angles = shown.curves.panel("angles")
    angles.select(["hip_flexion_r", "knee_angle_r", "hip_flexion_l", "lumbar_extension"])
    colours = angles.colours()
    assert colours["hip_flexion_l"] == SIDES["Left"] and colours["hip_flexion_r"] == SIDES["Right"]
    # a side's second curve is a shade of its colour: red dominant, told apart from the first
    r, g, b = (int(colours["knee_angle_r"][i:i + 2], 16) for i in (1, 3, 5))
    assert r > g and r > b and colours["knee_angle_r"] != colours["hip_flexion_r"]
    # a curve of no side is neither blue nor red (of neither side's hue)
    r, g, b = (int(colours["lumbar_extension"][i:i + 2], 16) for i in (1, 3, 5))
    assert not (b > r + 40 and b > g + 40) and not (r > g + 40 and r > b + 40)
    # the exported figure carries the same colours, and its stance spans the sides' colours
    plot = angles.figure_plot("s", "t")
    assert {c.label: c.colour for c in plot.curves} == {s.label: colours[s.channel] for s in angles.selected_series()}


def test_an_amputation_edit_keeps_the_settings_edits_not_yet_run(make_window, test_data):
    from engine.io.open import open_model
    window = make_window()
    window.document.set_inputs(model=open_model(test_data / "opensim" / "gait2354" / "subject01_simbody.osim"))
    panel = window.settings_panel
    panel.cutoff.setValue(7.5)                       # typed by the user, not yet run
    panel.axes.setText("Y-up, X-forward")
    panel.axes.editingFinished.emit()                # as when the user leaves the field for the amputation panel
    window.amputation.apply_preset()                 # the transtibial edit: a new model, same coordinates
    assert "tib_ant_r" not in [m.name for m in window.document.model.muscles]
    assert panel.cutoff.value() == 7.5 and panel.axes.text() == "Y-up, X-forward"
    window.amputation.undo()
    assert panel.cutoff.value() == 7.5
    window.document.set_inputs(model=open_model(test_data / "opensim" / "gait2354" / "subject01_simbody.osim"))
    assert panel.cutoff.value() == 7.5               # another model, the same settings: still the user's


def test_clinical_words_shown_the_engine_s_in_tooltips(shown):
    from PySide6.QtWidgets import QFormLayout, QLabel
    window = shown
    torques = window.curves.panel("torques")
    assert torques.plot.getAxis("left").labelText.startswith("joint moment")
    assert "generalized forces" in torques.plot.toolTip()
    names = [window.curves.tabs.tabText(i) for i in range(window.curves.tabs.count())]
    assert "joint moments" in names and "torques" not in names
    panel = window.settings_panel
    labels = [w.text() for form in panel.findChildren(QFormLayout) for i in range(form.rowCount())
              for w in [form.itemAt(i, QFormLayout.ItemRole.LabelRole)] if w is not None
              for w in [w.widget()] if isinstance(w, QLabel)]
    assert labels and not [t for t in labels if "W1" in t or "W2" in t or "generalized" in t]
    assert "W1 on the floating base" in panel.w_base.toolTip() and "W2 on the joint torques" in panel.w_torque.toolTip()


def test_the_3d_view_has_colour_legends_in_the_layers_colours(shown):
    from hybridgui.viewport import style
    from tests.gui.conftest import differing
    window = shown
    assert window.reported == []
    legend = window.scene.layers["legend"]
    entries = dict(legend.entries)
    assert entries["ground reaction, measured (plate)"] == style.MEASURED                  # the demo has plates ...
    assert entries["ground reaction, estimated from the motion"] == style.ESTIMATED          # ... and the estimate
    assert entries["marker, recorded"] == style.EXPERIMENTAL_MARKER
    assert entries["marker, on the model"] == style.MODEL_MARKER
    grf = window.scene.layers["grf"]
    for (_, kind, _, _), actor in zip(grf.arrows, grf.actors):       # the arrows are drawn in the colours named
        assert actor.GetProperty().GetColor() == pytest.approx(entries[f"ground reaction, {kind} (plate)" if kind ==
                                                                       "measured" else
                                                                       "ground reaction, estimated from the motion"])
    assert "muscle activation" in legend.bars                        # the demo's muscles are coloured
    window.set_blade_colouring("bending moment")
    assert "blade bending moment (N m)" in legend.bars
    window.set_blade_colouring("none")
    assert not [t for t in legend.bars if t.startswith("blade")]
    # no two meanings share a colour: sides, sources, activation's low end, the axes
    colours = [style.MEASURED, style.ESTIMATED, style.EXPERIMENTAL_MARKER, style.MODEL_MARKER, style.AXES]
    assert len({tuple(round(c, 2) for c in colour) for colour in colours}) == len(colours)
    assert style.MEASURED[1] < max(style.MEASURED[0], style.MEASURED[2])         # not green (low activation)
    shown_with = window.view.image()
    window.set_layer_visible("legend", False)                         # the legend is drawn, and can be hidden
    assert differing(shown_with, window.view.image()).sum() > 500


def test_normative_bands_behind_the_joint_angles_on_the_gait_cycle(shown, monkeypatch):
    import numpy as np
    import pyqtgraph as pg
    from hybridgui.curves import view as view_module
    from engine.io.normative_file import band_for, builtin_bands
    curves = shown.curves
    angles = curves.panel("angles")
    angles.select(["knee_angle_r", "ankle_angle_l"])
    curves.axis.setCurrentText("Right gait cycle")
    assert angles.normative == {}                     # the demo runs: no running band is shipped, none drawn
    monkeypatch.setattr(view_module, "trial_gait", lambda *args: "walking")    # as for a walking trial
    curves.axis.setCurrentText("Left gait cycle")
    assert set(angles.normative) >= {"knee_angle_r", "ankle_angle_l"}
    knee = band_for(builtin_bands(), "knee flexion", "deg", "walking")
    fills = [item for item in angles._bands if isinstance(item, pg.FillBetweenItem) and item.zValue() == -5]
    assert len(fills) == 2                            # one per channel chosen that has a band
    # knee_angle is negative in flexion in the model: the band is drawn with the model's sign
    _, lower, upper = angles.normative["knee_angle_r"]
    assert np.allclose(lower, -knee.upper) and np.allclose(upper, -knee.lower)
    curves_z = [angles._curves[s.label].zValue() for s in angles.selected_series()]
    assert all(f.zValue() < min(curves_z) for f in fills)
    legend = [label.text for _, label in angles.plot.plotItem.legend.items]
    assert any(t.startswith("typically developing children") and t.endswith("(Schwartz et al. 2008)") for t in legend)
    curves.axis.setCurrentText("time")
    assert not [i for i in angles._bands if isinstance(i, pg.FillBetweenItem) and i.zValue() == -5]
