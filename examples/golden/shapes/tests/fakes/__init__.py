# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Fake executables and SDK trees for the command-line tests, generated in tmp_path."""
