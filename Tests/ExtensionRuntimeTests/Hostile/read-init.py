# Reads what process 1 of its namespace shows, the tree's init, and reports whether {MARKER} is in it.
from wire import *
host = connect()
found = []
for name in ("cmdline", "environ", "comm", "maps"):
    try:
        with open("/proc/1/" + name, "rb") as f:
            data = f.read()
        found.append("%s: %d bytes, marker %s" % (name, len(data), "found" if b"{MARKER}" in data else "absent"))
    except OSError as error:
        found.append("%s: %s" % (name, error.strerror))
cancel_saying(host, "; ".join(found))
stay()
