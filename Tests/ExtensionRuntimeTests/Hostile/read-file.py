# Loads attachment 0 as a file and reports whether what it read holds MARKER.
from wire import *
host = connect()
send_on(host, message(LOAD, u32(1) + u32(0) + string("public.data") + bytes([FILE])))
while True:
    kind, body, fds = receive(host)
    if kind == LOADED:
        break
if fds:
    data = os.read(fds[0], 1 << 20)
    cancel_saying(host, "read %d bytes; marker %s" % (len(data), "found" if b"{MARKER}" in data else "absent"))
else:
    tag = body[4]
    cancel_saying(host, "load failed: " + body[5:].decode(errors="replace"))
stay()
