# Sends SIGNAL to its parent, which is the host unless the runtime put something between them, then completes.
from wire import *
import signal, time
host = connect()
try:
    os.kill(os.getppid(), signal.{SIGNAL})
    said = "sent"
except OSError as error:
    said = "refused (%s)" % error.strerror
time.sleep(0.2)
cancel_saying(host, "parent %d: %s" % (os.getppid(), said))
stay()
