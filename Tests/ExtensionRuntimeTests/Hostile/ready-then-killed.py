# Says ready, and is killed at once, most often before the host has read what it said: its end, not a
# handshake the host can no longer check, decides the outcome.
from wire import *
import signal
host = connect()
os.kill(os.getpid(), signal.SIGKILL)
