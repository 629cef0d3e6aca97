"""The subject's height and body mass a trial records, read from the C3D parameters labs write (c3d.org's samples:
SUBJECT:HEIGHT in m or cm, SUBJECT:WEIGHT in kg; Vicon Nexus's PROCESSING:Height in mm and Bodymass in kg, added
to a copy of a sample by ezc3d), converted to m and kg with where each came from; values not usable are said, never
taken; a height or mass given by the user outside the plausible range is refused naming it. The height and mass an
analysis takes (``subject_height``, ``subject_mass``; ``engine.protocols.fitting``'s with one given), from each
origin: given, the trial's C3D, its static trial's when the trial records none, none (or a value refused), checked
against the parameters of small C3D files written here by ezc3d."""
from pathlib import Path
from types import SimpleNamespace

import ezc3d
import numpy as np
import pytest

from engine.errors import SettingsError
from engine.io.c3d import read_c3d, read_c3d_parameters
from engine.protocols.fitting import body_mass, height_notes, stature
from engine.trial.body_measures import (BMI_RANGE, Given, analysis_height, bmi_note, check_height, check_mass,
                                        recorded_height, recorded_mass, subject_height, subject_mass)


def _parameter(path: Path, group: str, name: str) -> float:
    """The parameter's value as ezc3d reads it from the file (the independent reference)."""
    return float(ezc3d.c3d(str(path))["parameters"][group][name]["value"][0])


@pytest.mark.parametrize("sample, height_name, metres_per_unit, unit", [
    (("Sample01", "Eb015pi.c3d"), "HEIGHT", 1.0, "m"),            # AMASS (Vicon 370): 1.63
    (("Sample02", "pc_real.c3d"), "HEIGHT", 1.0, "m"),            # 1.78
    (("Sample28", "dynamic.C3D"), "Height", 0.01, "cm"),          # BTS: 166
])
def test_the_c3d_samples_heights_and_weights_in_si_with_their_source(test_data, sample, height_name,
                                                                      metres_per_unit, unit):
    path = test_data.joinpath("c3d", *sample)
    trial = read_c3d(path)
    written = _parameter(path, "SUBJECT", height_name)
    height = recorded_height(trial)
    assert height.value == pytest.approx(written * metres_per_unit, rel=1e-12)
    assert height.source == f"the trial's SUBJECT:{height_name} {written:g} {unit}" and height.rejected == ()
    weight_name = height_name.replace("HEIGHT", "WEIGHT").replace("Height", "Weight")
    mass = recorded_mass(trial)
    assert mass.value == pytest.approx(_parameter(path, "SUBJECT", weight_name), rel=1e-12)
    assert mass.source == f"the trial's SUBJECT:{weight_name} {mass.value:g}, taken as kg (C3D gives no unit)"


def test_nexus_processing_height_is_read_in_millimetres_and_bodymass_in_kilograms(test_data, tmp_path):
    c3d = ezc3d.c3d(str(test_data / "c3d" / "Sample26" / "Capture0002.c3d"))      # Qualisys: neither recorded
    assert recorded_height(read_c3d(test_data / "c3d" / "Sample26" / "Capture0002.c3d")).found is None
    c3d.add_parameter("PROCESSING", "Height", [1745.0])
    c3d.add_parameter("PROCESSING", "Bodymass", [68.4])
    c3d.write(str(tmp_path / "nexus.c3d"))
    trial = read_c3d(tmp_path / "nexus.c3d")
    height, mass = recorded_height(trial), recorded_mass(trial)
    assert height.value == pytest.approx(1.745, rel=1e-12) and height.source == "the trial's PROCESSING:Height 1745 mm"
    assert mass.value == pytest.approx(68.4, rel=1e-6) and mass.source.startswith("the trial's PROCESSING:Bodymass 68.4")


def _trial(subject=None, processing=None):
    return SimpleNamespace(subject=subject or {}, metadata={"processing": processing or {}})


def test_values_not_usable_are_said_and_never_taken():
    unfilled = recorded_height(_trial(processing={"Height": 0.0}))       # Nexus's measurement not filled in
    assert unfilled.value is None and unfilled.found == ("PROCESSING:Height", 0.0)
    assert unfilled.rejected == ("the trial's PROCESSING:Height 0 was not used as the subject's stature: it is 0 "
                                 "(not recorded)",)
    metres = recorded_height(_trial(processing={"Height": 1.75}))        # PROCESSING is mm: 1.75 mm is no stature
    assert metres.value is None and "read in mm it is not within 1-2.5 m" in metres.rejected[0]
    text = recorded_mass(_trial(subject={"WEIGHT": "heavy"}))
    assert text.value is None and text.rejected == ("the trial's SUBJECT:WEIGHT 'heavy' was not used as the "
                                                    "subject's body mass: it is not a number",)
    pounds = recorded_mass(_trial(subject={"Weight": 400.0}, processing={"Bodymass": 72.0}))
    assert pounds.value == 72.0 and "PROCESSING:Bodymass" in pounds.source
    assert pounds.rejected == ("the trial's SUBJECT:Weight 400 was not used as the subject's body mass: read in kg "
                               "it is not within 20-250 kg",)


def test_a_mass_in_pounds_is_refused_by_the_body_mass_index_it_gives_with_the_trials_height():
    # 154 lb (69.9 kg) taken as kg for a 1.60 m subject: 154 / 1.60^2 = 60.16 kg/m^2, over 50; the note names both
    pounds = recorded_mass(_trial(subject={"HEIGHT": 1.60, "WEIGHT": 154.0}))
    assert pounds.value is None and pounds.refused
    assert pounds.rejected == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, "
                               "with the trial's SUBJECT:HEIGHT 1.6 m (recorded with it) it gives a body mass index "
                               f"of {154 / 1.6 ** 2:.1f} kg/m^2, not within 12-50 kg/m^2 (pounds, or another "
                               "subject's mass?)",)
    assert BMI_RANGE == (12.0, 50.0)
    light = recorded_mass(_trial(subject={"Height": 190.0, "MASS": 40.0}))       # 40 / 1.9^2 = 11.08 < 12
    assert light.value is None and "SUBJECT:Height 190 cm" in light.rejected[0] and "of 11.1 kg/m^2" in light.rejected[0]
    # the next parameter is still read: Nexus's Bodymass (kg) gives 70 / 1.6^2 = 27.3
    nexus = recorded_mass(_trial(subject={"HEIGHT": 1.60, "WEIGHT": 154.0}, processing={"Bodymass": 70.0}))
    assert nexus.value == 70.0 and nexus.source == "the trial's PROCESSING:Bodymass 70 kg" and len(nexus.rejected) == 1
    # without a height there is nothing to check it by: taken, the assumption said
    alone = recorded_mass(_trial(subject={"WEIGHT": 154.0}))
    assert alone.value == 154.0 and alone.source == "the trial's SUBJECT:WEIGHT 154, taken as kg (C3D gives no unit)"
    assert not alone.refused and alone.rejected == ()


def test_a_mass_recorded_without_a_height_is_checked_by_the_subjects_height_known_elsewhere():
    # the trial records 154 (lb) and no height; the subject's height is known elsewhere (the analysis's, another
    # trial's), named by the caller: 154 / 1.6^2 = 60.2 kg/m^2 is refused naming that height; 70 / 1.6^2 = 27.3 is taken
    given = (1.6, "the stature the analysis uses (the height given with --height on the command line, 1.600 m)")
    pounds = recorded_mass(_trial(subject={"WEIGHT": 154.0}), height=given)
    assert pounds.value is None and pounds.refused
    assert pounds.rejected == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, "
                               "with the stature the analysis uses (the height given with --height on the command "
                               f"line, 1.600 m) it gives a body mass index of {154 / 1.6 ** 2:.1f} kg/m^2, not within "
                               "12-50 kg/m^2 (pounds, or another subject's mass?)",)
    kilograms = recorded_mass(_trial(subject={"WEIGHT": 70.0}), height=given)
    assert kilograms.value == 70.0 and kilograms.rejected == ()
    # the height recorded with the mass (1.9 m: 154 / 1.9^2 = 42.7) and the one the analysis uses (1.6 m given: 60.2)
    # both check it, a mass scaled to a height it does not fit being as wrong as one in pounds; both are named
    tall = recorded_mass(_trial(subject={"HEIGHT": 1.9, "WEIGHT": 154.0}), height=given)
    assert tall.value is None and tall.refused
    assert tall.rejected == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, "
                             f"with the trial's SUBJECT:HEIGHT 1.9 m (recorded with it) it gives a body mass index of "
                             f"{154 / 1.9 ** 2:.1f} kg/m^2 and with the stature the analysis uses (the height given "
                             f"with --height on the command line, 1.600 m) it gives a body mass index of "
                             f"{154 / 1.6 ** 2:.1f} kg/m^2, not both within 12-50 kg/m^2 (pounds, or another subject's "
                             "mass?)",)
    assert 12 <= 154 / 1.9 ** 2 <= 50 < 154 / 1.6 ** 2                # only the height the analysis uses refuses it
    fits = recorded_mass(_trial(subject={"HEIGHT": 1.9, "WEIGHT": 70.0}), height=given)   # 19.4 and 27.3 kg/m^2
    assert fits.value == 70.0 and fits.rejected == ()
    # the same height as the one recorded with it checks once
    same = recorded_mass(_trial(subject={"HEIGHT": 1.6, "WEIGHT": 154.0}), height=(1.6, "the stature the analysis uses"))
    assert "recorded with it) it gives a body mass index of 60.2 kg/m^2, not within" in same.rejected[0]


ESTIMATE = (1.7, "the model's 1.75 m times the 0.97 the markers' distances give, 1.700 m")
"""A stature estimated without a measure (``engine.protocols.fitting.marker_stature``'s form)."""


def test_a_mass_beside_a_refused_height_is_checked_by_the_stature_the_analysis_uses_not_the_static_trials():
    """A height refused (17.8: no stature) is not replaced by the static trial's (the trial may be another subject's
    file): the analysis uses the stature the markers give, and the mass beside the refused height is checked by that
    stature, the one the model is made with, not by the static trial's it does not use, which the notes say is not
    used. 80 kg: 55.6 kg/m^2 with the static's 1.2 m, 27.7 with the 1.7 m the analysis uses: taken; 154 kg: 42.7
    kg/m^2 with the static's 1.9 m, 53.3 with 1.7 m: refused, naming the stature used."""
    static = SimpleNamespace(subject={"HEIGHT": 1.2}, metadata={}, source="static.c3d")
    trial = SimpleNamespace(subject={"HEIGHT": 17.8, "WEIGHT": 80.0}, metadata={}, source="walk.c3d")
    assert 80 / 1.2 ** 2 > BMI_RANGE[1] and BMI_RANGE[0] < 80 / 1.7 ** 2 < BMI_RANGE[1]
    height = subject_height(trial, static)
    assert height.value is None and height.rejected == (
        "the trial's SUBJECT:HEIGHT 17.8 was not used as the subject's stature: read as m, cm or mm it is not within "
        "1-2.5 m",
        "the static trial static.c3d's SUBJECT:HEIGHT 1.2 m was not used as the subject's stature in place of the trial's: a value the "
        "trial records but refuses is not replaced (the trial may be another subject's)")
    assert analysis_height(trial, static, None, ESTIMATE) == ESTIMATE
    mass = subject_mass(trial, static, None, ESTIMATE)
    assert (mass.value, mass.rejected) == (80.0, ())
    kg, notes = body_mass(trial, None, static, ESTIMATE)
    assert kg == 80.0 and notes == [
        "the subject's body mass is the trial's SUBJECT:WEIGHT 80, taken as kg (C3D gives no unit)",
        f"the subject's body mass index is {80 / 1.7 ** 2:.1f} kg/m^2 (80.000 kg over the stature 1.700 m squared), "
        "within 12-50 kg/m^2"]
    assert height_notes(trial, None, static, ESTIMATE) == [*height.rejected, f"the subject's stature is estimated: "
                                                           f"{ESTIMATE[1]} (no height given nor recorded usable)"]
    pounds = SimpleNamespace(subject={"HEIGHT": 17.8, "WEIGHT": 154.0}, metadata={}, source="walk.c3d")
    tall = SimpleNamespace(subject={"HEIGHT": 1.9}, metadata={}, source="static.c3d")
    assert BMI_RANGE[0] < 154 / 1.9 ** 2 < BMI_RANGE[1] < 154 / 1.7 ** 2
    mass = subject_mass(pounds, tall, None, ESTIMATE)
    assert mass.value is None and mass.refused and mass.rejected == (
        "the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, with the stature the "
        f"analysis uses ({ESTIMATE[1]}) it gives a body mass index of {154 / 1.7 ** 2:.1f} kg/m^2, not within 12-50 "
        "kg/m^2 (pounds, or another subject's mass?)",)
    kg, notes = body_mass(pounds, None, tall, ESTIMATE, kept=70.0)
    assert kg is None and notes == [*mass.rejected, "no body mass in the trial nor given: the model's is kept, "
                                                    "70.000 kg", f"the subject's body mass index is "
                                    f"{70 / 1.7 ** 2:.1f} kg/m^2 (70.000 kg over the stature 1.700 m squared), within "
                                    "12-50 kg/m^2"]
    # a height given is the analysis's: it checks the mass, the static's plays no part
    given = Given(height=1.6, height_from="with --height")
    mass = subject_mass(pounds, tall, given, ESTIMATE)
    assert mass.value is None and ("with the stature the analysis uses (the height given with --height, 1.600 m) it "
                                   f"gives a body mass index of {154 / 1.6 ** 2:.1f}") in mass.rejected[0]
    # no stature known at all (no estimate): the mass is taken unchecked, which the notes say
    kg, notes = body_mass(trial, None, static)
    assert kg == 80.0 and notes[-1] == ("the subject's body mass is not checked by a body mass index: no stature is "
                                        "known (none given nor recorded, nor estimated from the markers)")
    # the static trial's mass beside its own refused height, the trial recording neither: checked by the stature used
    mass = subject_mass(SimpleNamespace(subject={}, metadata={}), SimpleNamespace(
        subject={"HEIGHT": 17.8, "WEIGHT": 154.0}, metadata={}, source="static.c3d"), given)
    assert mass.value is None and mass.rejected[-1] == (
        "the static trial static.c3d's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, with "
        f"the stature the analysis uses (the height given with --height, 1.600 m) it gives a body mass index of "
        f"{154 / 1.6 ** 2:.1f} kg/m^2, not within 12-50 kg/m^2 (pounds, or another subject's mass?)")


def test_the_body_mass_index_of_a_mass_given_is_said_and_flagged_when_not_within_the_range():
    """A mass given is the user's, taken whatever its index: 154 kg given for a trial recording 1.6 m (60.2 kg/m^2)
    is used, and the notes say its index is not within 12-50 kg/m^2."""
    trial = SimpleNamespace(subject={"HEIGHT": 1.6}, metadata={}, source="walk.c3d")
    kg, notes = body_mass(trial, Given(mass=154.0, mass_from="with --mass"))
    assert kg == 154.0 and notes == [
        "the subject's body mass is the mass given with --mass, 154.000 kg; the trial gives none",
        f"the subject's body mass index is {154 / 1.6 ** 2:.1f} kg/m^2 (154.000 kg over the stature 1.600 m squared), "
        "not within 12-50 kg/m^2: the mass given is taken as given; check it and the stature"]
    assert bmi_note(70.0, 1.75) == (f"the subject's body mass index is {70 / 1.75 ** 2:.1f} kg/m^2 (70.000 kg over the "
                                    "stature 1.750 m squared), within 12-50 kg/m^2")


def test_the_height_given_and_the_one_recorded_with_the_mass_both_check_it_in_the_analysis():
    """``hybrid analyze --height 1.6`` on a trial recording HEIGHT 1.9 and WEIGHT 154: 42.7 kg/m^2 with its own height,
    but the analysis would scale a 1.6 m subject at 154 kg (60.2 kg/m^2): refused, naming both heights."""
    trial = SimpleNamespace(subject={"HEIGHT": 1.9, "WEIGHT": 154.0}, metadata={}, source="walk.c3d")
    mass, notes = body_mass(trial, Given(height=1.6, height_from="with --height"))
    assert mass is None
    assert ("with the trial's SUBJECT:HEIGHT 1.9 m (recorded with it) it gives a body mass index of "
            f"{154 / 1.9 ** 2:.1f} kg/m^2 and with the stature the analysis uses (the height given with --height, "
            f"1.600 m) it gives a body mass index of {154 / 1.6 ** 2:.1f} kg/m^2, not both within") in notes[0]
    # without the height given, the trial's own is the analysis's: checked once, taken
    assert body_mass(trial)[0] == 154.0


def test_only_a_value_other_than_0_is_refused():
    assert not recorded_height(_trial(processing={"Height": 0.0})).refused       # Nexus: not filled in
    assert recorded_height(_trial(subject={"HEIGHT": 17.8})).refused
    assert recorded_mass(_trial(subject={"WEIGHT": "heavy"})).refused


@pytest.mark.parametrize("check, value, said", [
    (check_height, 180.0, "height must be the subject's height in metres, between 1 and 2.5; got 180"),
    (check_height, float("nan"), "got nan"),
    (check_mass, 0.0, "mass must be the subject's body mass in kilograms, positive and between 20 and 250; got 0"),
    (check_mass, -70.0, "got -70"),
    (check_mass, 7000.0, "between 20 and 250; got 7000"),
])
def test_a_given_height_or_mass_outside_its_range_is_refused_naming_the_range(check, value, said):
    with pytest.raises(SettingsError) as err:
        check(value, "--x")
    assert said in err.value.problem and err.value.element == "--x"


def test_a_given_height_or_mass_within_its_range_is_taken():
    assert (check_height(1.0, "h"), check_height(2.5, "h"), check_mass(20, "m"), check_mass(250.0, "m")) == (
        1.0, 2.5, 20.0, 250.0)


def test_whose_names_the_trial_in_the_source_and_notes_and_the_reading_is_bare():
    trial = _trial({"HEIGHT": 178.0, "WEIGHT": 0})
    height, mass = recorded_height(trial, "the static trial s.c3d's"), recorded_mass(trial, "the static trial s.c3d's")
    assert (height.source, height.reading) == ("the static trial s.c3d's SUBJECT:HEIGHT 178 cm", "SUBJECT:HEIGHT 178 cm")
    assert mass.rejected == ("the static trial s.c3d's SUBJECT:WEIGHT 0 was not used as the subject's body mass: it "
                             "is 0 (not recorded)",)
    assert recorded_height(trial).source == "the trial's SUBJECT:HEIGHT 178 cm"


def test_a_check_named_by_where_it_was_given_says_the_name_once():
    # hybrid analyze/scale check --mass under its own name: "--mass: must be ...", not "--mass: --mass must be ..."
    with pytest.raises(SettingsError) as err:
        check_mass(0.0, "--mass", "--mass")
    assert str(err.value) == ("--mass: must be the subject's body mass in kilograms, positive and between 20 and 250; "
                              "got 0")
    with pytest.raises(SettingsError) as err:
        check_height(3.0, "Markers panel")
    assert str(err.value).startswith("Markers panel: height must be")


def test_values_are_quoted_as_written():
    from engine.trial.body_measures import as_written
    assert [as_written(v) for v in (1.60, [154.0], 80, "heavy", [1.0, 2.0], True)] == [
        "1.6", "154", "80", "'heavy'", "[1.0, 2.0]", "True"]


def _c3d(path: Path, subject: dict | None = None, processing: dict | None = None) -> Path:
    """A small C3D file (two markers, ten frames at 100 Hz) written by ezc3d at ``path``, recording the ``subject``
    parameters in its SUBJECT group and ``processing`` in its PROCESSING group (none: no such group)."""
    c3d = ezc3d.c3d()
    c3d["parameters"]["POINT"]["RATE"]["value"] = [100.0]
    c3d["parameters"]["POINT"]["LABELS"]["value"] = ["RASI", "LASI"]
    c3d["parameters"]["POINT"]["UNITS"]["value"] = ["mm"]
    points = np.ones((4, 2, 10))
    points[:3] = np.random.default_rng(5).normal(800.0, 50.0, size=(3, 2, 10))
    c3d["data"]["points"] = points
    for group, parameters in (("SUBJECT", subject or {}), ("PROCESSING", processing or {})):
        for name, value in parameters.items():
            c3d.add_parameter(group, name, [value])
    c3d.write(str(path))
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    """name -> (path, Trial read by ``read_c3d``) of the trials and static trials the tests below take measures from."""
    folder = tmp_path_factory.mktemp("body_measures")
    made = {
        "walk": _c3d(folder / "walk.c3d", subject={"HEIGHT": 1.72, "WEIGHT": 64.5}),            # m, kg
        "bare": _c3d(folder / "bare.c3d"),                                                    # records neither
        "unfilled": _c3d(folder / "unfilled.c3d", processing={"Height": 0.0, "Bodymass": 0.0}),   # Nexus, not filled
        "typo": _c3d(folder / "typo.c3d", subject={"HEIGHT": 17.8, "WEIGHT": 640.0}),
        "static": _c3d(folder / "static.c3d", processing={"Height": 1805.0, "Bodymass": 81.2}),   # Nexus: mm, kg
        "static_typo": _c3d(folder / "static_typo.c3d", subject={"Height": 1805.0, "MASS": 8.12}),
    }
    return {name: (path, read_c3d(path)) for name, path in made.items()}


def test_an_analysis_takes_the_height_and_mass_the_trials_c3d_records_not_its_static_trials(files):
    path, trial = files["walk"]
    static = files["static"][1]
    height, mass = subject_height(trial, static), subject_mass(trial, static)
    written_height, written_weight = _parameter(path, "SUBJECT", "HEIGHT"), _parameter(path, "SUBJECT", "WEIGHT")
    assert height.value == pytest.approx(written_height, rel=1e-12) and written_height == pytest.approx(1.72, rel=1e-6)
    assert height.source == f"the trial's SUBJECT:HEIGHT {written_height:g} m" and height.rejected == ()
    assert mass.value == pytest.approx(written_weight, rel=1e-12)
    assert mass.source == f"the trial's SUBJECT:WEIGHT {written_weight:g}, taken as kg (C3D gives no unit)"
    assert (subject_height(trial), subject_mass(trial)) == (height, mass)          # the static trial plays no part


@pytest.mark.parametrize("own", ["bare", "unfilled"])
def test_a_trial_recording_none_takes_its_static_trials_which_is_named(files, own):
    """Nothing recorded, or 0 (a Nexus measurement not filled in): the static trial's, named as the notes say it."""
    trial = files[own][1]
    static_path, static = files["static"]
    height, mass = subject_height(trial, static), subject_mass(trial, static)
    written_height, written_mass = _parameter(static_path, "PROCESSING", "Height"), _parameter(static_path,
                                                                                               "PROCESSING", "Bodymass")
    assert height.value == pytest.approx(written_height / 1000, rel=1e-12)
    assert height.source == (f"the static trial {static_path}'s PROCESSING:Height {written_height:g} mm (the trial "
                             "records none)")
    assert height.reading == f"PROCESSING:Height {written_height:g} mm"
    assert mass.value == pytest.approx(written_mass, rel=1e-12)
    assert mass.source == (f"the static trial {static_path}'s PROCESSING:Bodymass {written_mass:g} kg (the trial "
                           "records none)")
    unfilled = own == "unfilled"
    assert height.rejected == (("the trial's PROCESSING:Height 0 was not used as the subject's stature: it is 0 (not "
                                "recorded)",) if unfilled else ())
    assert mass.rejected == (("the trial's PROCESSING:Bodymass 0 was not used as the subject's body mass: it is 0 (not "
                              "recorded)",) if unfilled else ())
    # the static trial's file parameters alone (as a study reads them) give the same
    (parameters,) = read_c3d_parameters([static_path])
    assert (subject_height(trial, parameters), subject_mass(trial, parameters)) == (height, mass)


def test_a_value_the_trial_records_but_refused_is_not_replaced_by_the_static_trials(files):
    """17.8 is no stature in m, cm or mm, 640 no body mass in kg: a typo, or another subject's file; the static
    trial's are not taken in their place, and the notes say why the trial's were not and that the static's were not
    used (never left unsaid)."""
    path, trial = files["typo"]
    static_path, static = files["static"]
    height, mass = subject_height(trial, static), subject_mass(trial, static)
    written_height, written_weight = _parameter(path, "SUBJECT", "HEIGHT"), _parameter(path, "SUBJECT", "WEIGHT")
    static_height = _parameter(static_path, "PROCESSING", "Height")
    static_mass = _parameter(static_path, "PROCESSING", "Bodymass")
    not_replaced = ("in place of the trial's: a value the trial records but refuses is not replaced (the trial may be "
                    "another subject's)")
    assert height.value is None and height.source is None and height.refused
    assert height.rejected == (f"the trial's SUBJECT:HEIGHT {written_height:g} was not used as the subject's stature: "
                               "read as m, cm or mm it is not within 1-2.5 m",
                               f"the static trial {static_path}'s PROCESSING:Height {static_height:g} mm was not used "
                               f"as the subject's stature {not_replaced}")
    assert mass.value is None and mass.source is None and mass.refused
    assert mass.rejected == (f"the trial's SUBJECT:WEIGHT {written_weight:g} was not used as the subject's body mass: "
                             "read in kg it is not within 20-250 kg",
                             f"the static trial {static_path}'s PROCESSING:Bodymass {static_mass:g} kg was not used "
                             f"as the subject's body mass {not_replaced}")
    assert subject_height(trial).rejected == height.rejected[:1] and subject_mass(trial).rejected == mass.rejected[:1]


def test_none_recorded_in_the_trial_nor_in_its_static_trial(files):
    trial = files["bare"][1]
    for static in (None, files["bare"][1]):
        for measure in (subject_height(trial, static), subject_mass(trial, static)):
            assert (measure.value, measure.source, measure.found, measure.rejected, measure.refused) == (
                None, None, None, (), False)
    # the static trial's refused: none taken, the note naming the static trial
    static_path, static = files["static_typo"]
    height, mass = subject_height(trial, static), subject_mass(trial, static)
    written_height, written_mass = _parameter(static_path, "SUBJECT", "Height"), _parameter(static_path, "SUBJECT",
                                                                                            "MASS")
    assert height.value == pytest.approx(written_height / 1000, rel=1e-12)     # 1805 read as mm (SUBJECT has no unit)
    assert mass.value is None and mass.source is None
    assert mass.rejected == (f"the static trial {static_path}'s SUBJECT:MASS {written_mass:g} was not used as the "
                             "subject's body mass: read in kg it is not within 20-250 kg",)


def test_a_height_and_mass_given_are_taken_over_the_trials_and_the_static_trials_the_origin_said(files):
    """``hybrid analyze --height/--mass`` (and a study's subject, the application's Markers panel): the values given
    are the analysis's, said with where they were given and the trial's own they replace."""
    path, trial = files["walk"]
    static = files["static"][1]
    given = Given(1.81, 70.0, "with --height on the command line", "with --mass on the command line")
    no_height = SimpleNamespace(metadata={})            # a model and a matching that give no stature of their own
    unscaled = SimpleNamespace(scale=None)
    assert stature(trial, no_height, unscaled, given, static) == (1.81, "the height given with --height on the "
                                                                        "command line, 1.810 m")
    written_height, written_weight = _parameter(path, "SUBJECT", "HEIGHT"), _parameter(path, "SUBJECT", "WEIGHT")
    assert height_notes(trial, given, static) == [
        "the subject's stature is the height given with --height on the command line, 1.810 m, instead of the trial's "
        f"SUBJECT:HEIGHT {written_height:g}"]
    bmi = (f"the subject's body mass index is {70 / 1.81 ** 2:.1f} kg/m^2 (70.000 kg over the stature 1.810 m "
           "squared), within 12-50 kg/m^2")
    assert body_mass(trial, given, static) == (70.0, [
        "the subject's body mass is the mass given with --mass on the command line, 70.000 kg, instead of the trial's "
        f"SUBJECT:WEIGHT {written_weight:g}", bmi])
    # a trial recording none: the given values still, not the static trial's
    bare = files["bare"][1]
    assert stature(bare, no_height, unscaled, given, static) == (1.81, "the height given with --height on the command "
                                                                       "line, 1.810 m")
    assert body_mass(bare, given, static) == (70.0, ["the subject's body mass is the mass given with --mass on the "
                                                     "command line, 70.000 kg; the trial gives none", bmi])
    # without them, the trial's (origin as subject_height and subject_mass say it)
    assert stature(trial, no_height, unscaled, None, static) == (pytest.approx(written_height, rel=1e-12),
                                                                 f"the trial's SUBJECT:HEIGHT {written_height:g} m")
