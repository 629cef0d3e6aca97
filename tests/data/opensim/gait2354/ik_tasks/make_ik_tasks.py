"""How setup_ik_tasks.xml, knee_shifted.mot and reference/ik_tasks.mot were made (once, with OpenSim 4.6).

setup_ik_tasks.xml is ../subject01_Setup_IK.xml with its time range cut to 0.4-0.7 s, mtp_angle_r held at a
manual_value of 0.3 (OpenSim reads it in radians: the output holds it at 17.19 degrees), subtalar_angle_r taken
from_file, a knee_angle_r task (weight 100) from_file, and knee_shifted.mot as its coordinate_file: the dataset's
../subject01_walk1_ik.mot with 15 degrees taken from knee_angle_r (more flexion, inside its range: HybridLab keeps every coordinate in its range, OpenSim only clamped ones) (so that the file, not the markers, decides the
knee). reference/ik_tasks.mot is OpenSim 4.6's InverseKinematicsTool output for that setup.

Run in a scratch folder holding copies of ../ (the model, trial and IK file) and this script:
``python make_ik_tasks.py``.
"""
import re

import opensim as osim


def task(text, name, value_type, value):
    start = text.index(f'<IKCoordinateTask name="{name}">')
    end = text.index("</IKCoordinateTask>", start)
    block = re.sub(r"<value_type>.*?</value_type>", f"<value_type>{value_type}</value_type>", text[start:end])
    block = re.sub(r"<value>.*?</value>", f"<value>{value}</value>", block)
    return text[:start] + block + text[end:]


lines = open("subject01_walk1_ik.mot").read().split("\n")
head = [k for k, line in enumerate(lines) if line.strip() == "endheader"][0]
knee = [label.strip() for label in lines[head + 1].split("\t")].index("knee_angle_r")
for k in range(head + 2, len(lines)):
    if lines[k].strip():
        values = lines[k].split("\t")
        values[knee] = "%.8f" % (float(values[knee]) - 15.0)
        lines[k] = "\t".join(values)
open("knee_shifted.mot", "w").write("\n".join(lines))

setup = open("subject01_Setup_IK.xml").read()
setup = task(setup, "mtp_angle_r", "manual_value", "0.3")
setup = task(setup, "subtalar_angle_r", "from_file", "0")
setup = setup.replace("<time_range> 0.4 1.6</time_range>", "<time_range> 0.4 0.7</time_range>")
setup = re.sub(r"<coordinate_file>.*?</coordinate_file>", "<coordinate_file>knee_shifted.mot</coordinate_file>", setup)
setup = re.sub(r"<output_motion_file>.*?</output_motion_file>", "<output_motion_file>ik_tasks.mot</output_motion_file>",
               setup)
at = setup.index('<IKCoordinateTask name="mtp_angle_r">')
setup = (setup[:at] + '<IKCoordinateTask name="knee_angle_r"><apply>true</apply><weight>100</weight>'
         "<value_type>from_file</value_type><value>0</value></IKCoordinateTask>\n\t\t\t\t" + setup[at:])
open("setup_ik_tasks.xml", "w").write(setup)
osim.InverseKinematicsTool("setup_ik_tasks.xml").run()
