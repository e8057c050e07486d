# Hands the host a background session's upload whose body is {BODY}: "sparse" a file of 64 MB that stores
# nothing, "large" 12 MB of real bytes, "small" 1 MB; then completes at once, as an extension that hands its
# upload to the system does: the host carries it on.
from wire import *
TRANSFER = 13
host = connect()
size = {"sparse": 64 << 20, "large": 12 << 20, "small": 1 << 20}["{BODY}"]
with open("body.bin", "wb") as f:
    if "{BODY}" == "sparse":
        f.truncate(size)
    else:
        f.write(os.urandom(size))
fd = os.open("body.bin", os.O_RDONLY)
transfer = u32(1) + string("session") + optional("group.org.example") + string("POST") + string("http://127.0.0.1:9/upload") + u32(0)
send_on(host, message(TRANSFER, transfer), [fd])
body, fds = complete([])
send_on(host, message(COMPLETE, body), fds)
stay()
