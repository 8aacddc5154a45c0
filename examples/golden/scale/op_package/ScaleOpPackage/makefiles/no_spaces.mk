# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# BUILD names make targets (the objects and programs under it), and make splits a
# target at spaces: a BUILD with a space failed in 22 lines of make errors. Refused
# here in one line, before anything runs (included by every makefile that reads BUILD,
# and by the project's root Makefile).

ifneq ($(word 2,$(BUILD)),)
$(error BUILD '$(BUILD)' has a space: make cannot build in such a folder (it splits file names at spaces); give a BUILD without spaces)
endif
