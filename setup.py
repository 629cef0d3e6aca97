"""Packages: ``engine``, ``hip_mechanism``, ``skin``, ``study`` and ``hybridgui`` as found, and ``resources/`` installed as
``hybridlab_resources`` (a folder name pyproject.toml's package discovery cannot rename)."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["engine", "engine.*", "hip_mechanism", "hip_mechanism.*", "skin", "skin.*",
                                      "study", "study.*", "hybridgui", "hybridgui.*"]) + ["hybridlab_resources"],
      package_dir={"hybridlab_resources": "resources"})
