# SPDX-License-Identifier: GPL-2.0
"""msgid_tools: the msgid-tools program (msgid-tools/msgid-db), built on
the kernel tree's msgid-db.py core, the msgid_db package of scripts/.

Importing it puts the repository's scripts/ on sys.path (after what is
there), so that msgid_db is the core of the same checkout.
"""

import os
import sys

#: scripts/ of the repository that holds msgid-tools/.
CORE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts")
if CORE not in sys.path:
    sys.path.append(CORE)
