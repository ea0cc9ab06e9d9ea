# SPDX-License-Identifier: GPL-2.0
"""Unit tests of msgid_db (python3 -m unittest discover -s
scripts/msgid_db/tests -t scripts)."""
