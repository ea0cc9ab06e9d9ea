# SPDX-License-Identifier: GPL-2.0
"""Unit tests of msgid-tools and of the kernel tree's msgid-db.py core
(python3 -m unittest discover -s msgid-tools/msgid_tools/tests -t
msgid-tools, as harness/pytest.sh runs them)."""
