# Returns data in a memory file it does not seal, and changes the bytes after sending them.
from wire import *
import time
host = connect()
fd = os.memfd_create("payload")
os.write(fd, b"what was sent")
body, fds = complete([(None, None, [(None, [("public.data", DATA, memory_result(13, fd))])])])
send_on(host, message(COMPLETE, body), fds)
os.pwrite(fd, b"what is there", 0)
stay()
