# Sends SIGNAL to its parent (the host, unless the runtime put something between them) and to the host by its
# own number, HOST, then cancels saying what each attempt did.
from wire import *
import signal, time
host = connect()
def attempt(process):
    try:
        os.kill(process, signal.{SIGNAL})
        return "%d: sent" % process
    except OSError as error:
        return "%d: refused (%s)" % (process, error.strerror)
said = "parent " + attempt(os.getppid()) + "; host " + attempt({HOST})
time.sleep(0.2)
cancel_saying(host, said)
stay()
