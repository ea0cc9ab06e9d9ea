WARNING:
BUG:
KASAN:
UBSAN:
Oops
general protection fault
Kernel panic
possible recursive locking
circular locking dependency
sleeping function called from invalid context
INFO: (lockdep|possible|task|rcu)
Call Trace:
list_(add|del) corruption
