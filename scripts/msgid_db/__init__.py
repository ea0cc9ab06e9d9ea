# SPDX-License-Identifier: GPL-2.0
"""msgid_db: build and query a database of printk message identifiers.

See scripts/msgid-db.py and ids.py for the identifier rule.
"""
