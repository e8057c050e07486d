# Returns {PATH} as a file, its descriptor opened with O_PATH, which names a file without granting its bytes:
# whether the extension could read it itself is said first (its log), then the completion is sent.
from wire import *
host = connect()
try:
    os.close(os.open("{PATH}", os.O_RDONLY))
    print("the extension can read {PATH} itself", flush=True)
except OSError as error:
    print("the extension cannot read {PATH}: %s" % error.strerror, flush=True)
fd = os.open("{PATH}", os.O_PATH)
body, fds = complete([(None, None, [(None, [("public.data", FILE, file_result("secret.txt", fd))])])])
send_on(host, message(COMPLETE, body), fds)
stay()
