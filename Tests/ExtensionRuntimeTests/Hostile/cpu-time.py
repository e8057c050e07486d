# Pins itself to core 0 and spends {SECONDS} seconds on a core, its own time, before it completes: work that fits
# its budget or not whatever a busy machine does to the wall clock.
from wire import *
import time
os.sched_setaffinity(0, {0})
host = connect()
start = time.thread_time()
while time.thread_time() - start < {SECONDS}:
    pass
body, descriptors = complete([])
send_on(host, message(COMPLETE, body), descriptors)
os._exit(0)
