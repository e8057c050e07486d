# Starts 200 children and a grandchild in a session of its own, all sleeping, then completes the request: none
# may outlive the run.
from wire import *
import time
host = connect()
for n in range(200):
    if os.fork() == 0:
        stay()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        stay()
    os._exit(0)
time.sleep(0.5)
send_on(host, message(COMPLETE, complete([])[0]))
stay()
