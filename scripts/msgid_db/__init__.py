# SPDX-License-Identifier: GPL-2.0
"""msgid_db: build and query a database of printk message identifiers.

See scripts/msgid-db.py and ids.py for the identifier rule.
"""

import importlib
from types import ModuleType
from typing import Optional


def optional(name: str) -> Optional[ModuleType]:
    """Import msgid_db.@name, or return None if the module is not there:
    the kernel tree holds the tool's core, the full msgid-db package adds
    modules (compressed images, kernel modules, the text matcher...)."""
    try:
        return importlib.import_module("msgid_db." + name)
    except ModuleNotFoundError as e:
        if e.name != "msgid_db." + name:
            raise   # a module that is there failed to import
        return None
