# SPDX-License-Identifier: GPL-2.0
"""msgid_tools.core: msgid-tools' own copy of the msgid-db.py core, with
everything the kernel tree's scripts/msgid_db/ left out to stay small:
locked temporary files and the removal of those killed builds leave,
signal handling, standard output hardening, the extension points of the
command line (build_parser(extend)), live streams and the many log forms
annotate reads, the call-site hints. The identifier rule itself
(strip_levels(), canonical(), msgid()) is the kernel tree's
(scripts/msgid_db/ids.py), imported by ids.py.
"""
