# Sends a packet of no bytes, then cancels the request properly.
from wire import *
import time
host = connect()
host.send(b"")
time.sleep(0.1)
cancel_saying(host, "after an empty packet")
stay()
