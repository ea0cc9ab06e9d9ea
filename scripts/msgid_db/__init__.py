# SPDX-License-Identifier: GPL-2.0
"""msgid_db: build and query a database of printk message identifiers."""
