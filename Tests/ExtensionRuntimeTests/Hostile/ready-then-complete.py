# Says ready, ends its request at once without waiting for it, and exits, most often before the host has read
# its ready: what it sent before it ended is its outcome.
from wire import *
host = connect()
body, descriptors = complete([])
send_on(host, message(COMPLETE, body), descriptors)
os._exit(0)
