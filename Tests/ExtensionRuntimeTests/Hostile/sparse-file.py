# Returns a file of SIZE bytes that takes no disk: a sparse file in its container, as a file representation.
from wire import *
host = connect()
with open("huge.bin", "wb") as f:
    f.truncate({SIZE})
fd = os.open("huge.bin", os.O_RDONLY)
body, fds = complete([(None, None, [("huge.bin", [("public.data", FILE, file_result("huge.bin", fd))])])])
send_on(host, message(COMPLETE, body), fds)
stay()
