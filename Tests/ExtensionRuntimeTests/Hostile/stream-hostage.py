# Loads attachment 0 as a file (the host answers with a stream's pipe), hands the pipe to a grandchild in a
# session of its own that never reads it, and completes.
from wire import *
host = connect()
send_on(host, message(LOAD, u32(1) + u32(0) + string("public.data") + bytes([FILE])))
while True:
    kind, body, fds = receive(host)
    if kind == LOADED:
        break
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        stay()
    os._exit(0)
send_on(host, message(COMPLETE, complete([])[0]))
stay()
