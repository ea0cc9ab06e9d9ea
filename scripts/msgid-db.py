#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""msgid-db.py: look up printk message IDs ("(1a2b3c4d): " log prefixes)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from msgid_db.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
